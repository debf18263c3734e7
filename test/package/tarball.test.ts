/**
 * What `npm pack` ships, read from the real tarball: no V8 code cache (one only works on the Node
 * build that made it; src/entry/boot.cjs writes them on the user's machine), the licence text and
 * the links a registry page shows, and public types that compile for a TypeScript user (with
 * @types/node, the optional peer dependency docs/library.md names, and nothing else).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../helpers/paths.js';

interface PackedFile {
  readonly path: string;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

function npm(args: readonly string[], cwd: string): string {
  const r = spawnSync('npm', [...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('the packed tarball', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-pack-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let files: string[] = [];
  before(() => {
    // --ignore-scripts: this suite's build is the one packed (prepare would rebuild it).
    const [report] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT)) as [{ filename: string; files: PackedFile[] }];
    files = report.files.map((f) => f.path);
    mkdirSync(join(dir, 'unpacked'));
    const untar = spawnSync('tar', ['-xzf', join(dir, report.filename), '-C', join(dir, 'unpacked')]);
    assert.equal(untar.status, 0, String(untar.stderr));
  });

  it('ships the bundles but no V8 code cache', async () => {
    assert.ok(files.includes('dist/boot.cjs') && files.includes('dist/skillctl.cjs') && files.includes('dist/cmd/validate.cjs'));
    // Every bundle dist/boot.cjs loads by name (src/entry/chunks.mjs, ENTRIES): one left out breaks the installed CLI.
    const { ENTRIES } = (await import(pathToFileURL(join(ROOT, 'src', 'entry', 'chunks.mjs')).href)) as { ENTRIES: Record<string, string> };
    for (const name of Object.values(ENTRIES)) assert.ok(files.includes(`dist/${name}.cjs`), name);
    assert.deepEqual(files.filter((f) => f.includes('.v8cache')), []);
  });

  it('ships the schema of every --json document (schemas/cli/, docs/formats/cli-json.md)', () => {
    for (const f of ['schemas/cli/validate.schema.json', 'schemas/cli/version.schema.json', 'schemas/cli/shared/error.schema.json', 'schemas/cli/shared/diagnostic.schema.json']) assert.ok(files.includes(f), f);
  });

  it('ships the Apache-2.0 licence text, and links to the repository, its home page and issues', () => {
    assert.equal(pkg['license'], 'Apache-2.0');
    const text = readFileSync(join(dir, 'unpacked', 'package', 'LICENSE'), 'utf8');
    assert.match(text, /^\s*Apache License\s+Version 2\.0, January 2004/);
    assert.match(text, /END OF TERMS AND CONDITIONS/);
    assert.match((pkg['repository'] as { url: string }).url, /^git\+https:\/\/.+\.git$/);
    assert.match(pkg['homepage'] as string, /^https:\/\//);
    assert.match((pkg['bugs'] as { url: string }).url, /^https:\/\/.+\/issues$/);
  });

  it('carries one copy of each YAML parser, in a chunk of its own, not one in each command', () => {
    const withParser = (marker: string): string[] =>
      files.filter((f) => f.endsWith('.cjs') && readFileSync(join(dir, 'unpacked', 'package', f), 'utf8').includes(marker));
    assert.deepEqual(withParser('YAMLParseError'), ['dist/cmd/yaml-document.cjs']);
    assert.deepEqual(withParser('YAMLException'), ['dist/cmd/yaml-fast.cjs']);
  });

  it("declares @types/node as an optional peer: the public types compile with it and no other types", () => {
    assert.deepEqual(pkg['peerDependenciesMeta'], { '@types/node': { optional: true } });
    const consumer = join(dir, 'consumer');
    mkdirSync(join(consumer, 'node_modules', '@types'), { recursive: true });
    // Moved, not linked: the compiler resolves the package's own imports from where it really is.
    renameSync(join(dir, 'unpacked', 'package'), join(consumer, 'node_modules', 'skillctl'));
    // The package's own dependencies, as an install would bring them, and @types/node: nothing else.
    for (const dep of Object.keys(pkg['dependencies'] as Record<string, string>)) {
      mkdirSync(join(consumer, 'node_modules', dep, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', dep), join(consumer, 'node_modules', dep));
    }
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(consumer, 'node_modules', '@types', 'node'));
    writeFileSync(
      join(consumer, 'consumer.ts'),
      [
        "import { canonicalize, jcsDigest, packBundle, validateBundle, VERSION, type Diagnostic } from 'skillctl';",
        'export const version: string = VERSION;',
        "export const text: string = canonicalize({ b: 1, a: [true, null] });",
        'export async function check(dir: string): Promise<readonly Diagnostic[]> {',
        '  const r = await validateBundle(dir);',
        "  const p = await packBundle(dir, 'out');",
        '  return [...r.diagnostics, ...p.diagnostics, ...(jcsDigest(text).length > 0 ? [] : r.diagnostics)];',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: false, types: ['node'] },
        files: ['consumer.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });
});
