/**
 * No module of src/ imports itself back, through any chain of relative imports: static, type-only
 * (a type is still a dependency a reader has to follow) or dynamic (a lazily loaded command chunk
 * is still part of the loop). Loops are where a newcomer gets lost and where a module boundary
 * cannot move; the CLI's command folders exist to have none (index.ts -> run.ts -> options.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/paths.js';

/** Every relative import of every .ts file under src/, as repository-relative paths. */
function importGraph(): Map<string, string[]> {
  const src = join(ROOT, 'src');
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(src, f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      .filter((dep) => existsSync(dep));
    graph.set(relative(ROOT, file), [...new Set(deps.map((d) => relative(ROOT, d)))]);
  }
  return graph;
}

/** The loops closed by depth-first back edges: none means the graph has no cycle. */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === 'open') found.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

describe('imports under src/', () => {
  const graph = importGraph();

  it('reads the import graph (relative imports of every module)', () => {
    assert.ok(graph.size > 300, `only ${graph.size} modules found`);
    assert.ok(graph.get('src/cli/commands/validate/index.ts')?.includes('src/cli/commands/validate/run.ts'), 'a lazy import is an edge');
  });

  it('form no loop', () => {
    const found = loops(graph).map((l) => l.join(' -> '));
    assert.deepEqual(found, [], `import loops:\n${found.join('\n')}`);
  });
});
