/**
 * The lazily loaded chunks are declared in src/entry/chunks.mjs, not by a file-name rule. A command
 * whose run module is not declared would still work, but bundled into the CLI every invocation
 * loads: these checks keep the declaration and the code in step.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/paths.js';

interface Chunks {
  readonly ENTRIES: Readonly<Record<string, string>>;
  readonly DYNAMIC_CHUNKS: Readonly<Record<string, string>>;
  readonly ENTRY_CHUNKS: Readonly<Record<string, string>>;
  readonly SYNC_CHUNKS: Readonly<Record<string, { readonly name: string; readonly exports: readonly string[] }>>;
}

const chunks = (await import(pathToFileURL(join(ROOT, 'src', 'entry', 'chunks.mjs')).href)) as Chunks;

/** The static imports of a module: its specifier, and whether only types are imported. */
function staticImports(file: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  return source.statements.filter(ts.isImportDeclaration).map((d) => {
    const clause = d.importClause;
    const named = clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
    const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
    return { spec: (d.moduleSpecifier as ts.StringLiteral).text, typeOnly };
  });
}

/** The modules a command's index.ts imports with `await import()`, repository-relative. */
function lazyImports(index: string): string[] {
  const text = readFileSync(index, 'utf8');
  return [...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => relative(ROOT, resolve(dirname(index), (m[1] as string).replace(/\.js$/, '.ts'))));
}

describe('src/entry/chunks.mjs', () => {
  it('names modules that exist, each bundle once', () => {
    const names = [...Object.values(chunks.DYNAMIC_CHUNKS), ...Object.values(chunks.ENTRY_CHUNKS), ...Object.values(chunks.SYNC_CHUNKS).map((c) => c.name)];
    assert.equal(new Set(names).size, names.length);
    assert.equal(new Set(Object.values(chunks.ENTRIES)).size, Object.keys(chunks.ENTRIES).length);
    const sources = [chunks.ENTRIES, chunks.DYNAMIC_CHUNKS, chunks.ENTRY_CHUNKS, chunks.SYNC_CHUNKS].flatMap((list) => Object.keys(list));
    for (const src of sources) assert.ok(existsSync(join(ROOT, src)), src);
  });

  it("declares every module a command's index.ts loads lazily", () => {
    const commands = join(ROOT, 'src', 'cli', 'commands');
    const dirs = readdirSync(commands, { withFileTypes: true }).filter((d) => d.isDirectory());
    assert.ok(dirs.length >= 14);
    for (const d of dirs) {
      const index = join(commands, d.name, 'index.ts');
      const lazy = lazyImports(index);
      assert.ok(lazy.length > 0, `${d.name}/index.ts loads its run module lazily`);
      for (const m of lazy) assert.ok(m in chunks.DYNAMIC_CHUNKS, `${m} (imported by ${d.name}/index.ts) is not declared in src/entry/chunks.mjs`);
    }
  });

  it('keeps every command index light: it is in the bundle every invocation loads', () => {
    const commands = join(ROOT, 'src', 'cli', 'commands');
    for (const d of readdirSync(commands, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const index = join(commands, d.name, 'index.ts');
      for (const { spec, typeOnly } of staticImports(index)) {
        assert.ok(!spec.includes('/core/'), `${d.name}/index.ts imports ${spec}`);
        if (spec !== './options.js' || typeOnly) continue;
        // Values from options.ts come with whatever options.ts imports: types only from the core.
        for (const dep of staticImports(join(commands, d.name, 'options.ts'))) {
          assert.ok(dep.typeOnly || !dep.spec.includes('/core/'), `${d.name}/index.ts takes values from options.ts, which imports ${dep.spec}`);
        }
      }
    }
  });
});
