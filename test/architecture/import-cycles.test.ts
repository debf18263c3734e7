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

/**
 * Known loops outside this suite's reach, each to be removed by the work that owns it. The test
 * fails when one of them is gone, so the list only shrinks.
 */
const KNOWN_LOOPS: readonly string[] = [
  // Issue 14, step 1 rewrites run/ as fixed steps: attempts.ts takes RunRequest/RunResult types from engine.ts.
  'src/core/run/attempts.ts -> src/core/run/engine.ts',
];

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

/** The edges that close a loop (depth-first back edges): none means the graph has no cycle. */
function loopEdges(graph: ReadonlyMap<string, readonly string[]>): { edge: string; loop: string[] }[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: { edge: string; loop: string[] }[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === 'open') found.push({ edge: `${node} -> ${dep}`, loop: [...stack.slice(stack.indexOf(dep)), dep] });
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** Whether `to` can be reached from `from` by following imports. */
function reaches(graph: ReadonlyMap<string, readonly string[]>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length > 0) {
    const node = todo.pop() as string;
    if (node === to) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    todo.push(...(graph.get(node) ?? []));
  }
  return false;
}

describe('imports under src/', () => {
  const graph = importGraph();

  it('reads the import graph (relative imports of every module)', () => {
    assert.ok(graph.size > 300, `only ${graph.size} modules found`);
    assert.ok(graph.get('src/cli/commands/validate/index.ts')?.includes('src/cli/commands/validate/run.ts'), 'a lazy import is an edge');
  });

  it('form no loop', () => {
    const known = new Set(KNOWN_LOOPS);
    const pruned = new Map([...graph].map(([node, deps]) => [node, deps.filter((dep) => !known.has(`${node} -> ${dep}`))]));
    const loops = loopEdges(pruned).map((l) => l.loop.join(' -> '));
    assert.deepEqual(loops, [], `import loops:\n${loops.join('\n')}`);
  });

  it('still have each known loop (remove it from KNOWN_LOOPS once it is gone)', () => {
    for (const edge of KNOWN_LOOPS) {
      const [from, to] = edge.split(' -> ') as [string, string];
      assert.ok(graph.get(from)?.includes(to) && reaches(graph, to, from), `${edge} no longer closes a loop`);
    }
  });

  it('form none under src/cli, with no exception', () => {
    const cli = loopEdges(graph).filter((l) => l.loop.some((m) => m.startsWith('src/cli/')));
    assert.deepEqual(
      cli.map((l) => l.loop.join(' -> ')),
      [],
    );
  });
});
