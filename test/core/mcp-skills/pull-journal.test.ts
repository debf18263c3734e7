// A pull killed between its renames, for real: a child process runs placeSkills and kills itself
// (SIGKILL) right after its Nth rename (test/helpers/killed-pull.ts), leaving the project as such
// a pull leaves it. The next pull, holding the write lock the dead one left, must put it right
// before anything else: undone (the earlier copy back, nothing of the dead pull placed) while its
// origin records were not written, finished once they were. No scratch folder, journal or
// earlier copy is left, and a folder something else put at one of its paths is never touched.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ORIGINS_FILE, placeSkills, type PlaceResult } from '../../../src/core/mcp-skills/index.js';
import { ORIGINS_LOCK } from '../../../src/core/mcp-skills/origins.js';
import { PULL_JOURNAL } from '../../../src/core/mcp-skills/pull-journal.js';
import { testFileLock } from '../../helpers/file-lock.js';
import { ROOT } from '../../helpers/paths.js';
import { pulledSkill } from '../../helpers/pulled-skill.js';
import { tempDir } from '../../helpers/tmp.js';

const KILLED_PULL = join(ROOT, 'dist', 'test', 'helpers', 'killed-pull.js');

interface Project {
  readonly root: string;
  readonly out: string;
}

function project(): Project {
  const root = realpathSync(tempDir('skillctl-journal-'));
  return { root, out: join(root, 'out') };
}

const pull = (p: Project, specs: [string, string][]): Promise<PlaceResult> =>
  placeSkills(
    specs.map(([name, body]) => pulledSkill(name, body)),
    { root: p.root, outDir: p.out, server: { command: ['srv'] }, localFolders: async () => [], fileLock: testFileLock() },
  );

/** Runs the pull of `specs` in a child that kills itself after its `after`th rename; fails the test if it was not killed. */
function killedPull(p: Project, after: number, specs: [string, string][]): void {
  const r = spawnSync(process.execPath, [KILLED_PULL, p.root, p.out, String(after), ...specs.map(([n, b]) => `${n}:${b}`)], { encoding: 'utf8' });
  assert.equal(r.signal, 'SIGKILL', `the pull was not killed after rename ${after}: ${r.stdout}${r.stderr}`);
}

const records = (p: Project): Record<string, { files: { path: string; size: number }[] }> =>
  (JSON.parse(readFileSync(join(p.root, ...ORIGINS_FILE.split('/')), 'utf8')) as { skills: Record<string, { files: { path: string; size: number }[] }> }).skills;
const notes = (p: Project, name: string): string => readFileSync(join(p.out, name, 'notes.md'), 'utf8');
const journal = (p: Project): string => join(p.root, ...PULL_JOURNAL.split('/'));
const hidden = (p: Project): string[] => readdirSync(p.out).filter((e) => e.startsWith('.'));

// The dead pull replaces an earlier pull of `a` and adds `b`. Its renames: 1 the journal, 2 `a`
// moved aside, 3 the new `a` in, 4 `b` in, 5 the origin records. Without the earlier pull: 1 the
// journal, 2 `a` in, 3 `b` in, 4 the records.
const DEAD: [string, string][] = [
  ['a', 'New.'],
  ['b', 'B.'],
];

describe('a pull killed between its renames is put right by the next pull', () => {
  for (const [after, left] of [
    [1, 'the journal written, nothing moved'],
    [2, 'the earlier a moved aside, the new one not in'],
    [3, 'the new a in place, b not'],
    [4, 'both in place, no origin records'],
  ] as const) {
    it(`killed after rename ${after} (${left}): undone, the earlier pull back as it was`, async () => {
      const p = project();
      assert.ok((await pull(p, [['a', 'Old.']])).ok);
      const before = readFileSync(join(p.root, ...ORIGINS_FILE.split('/')));
      killedPull(p, after, DEAD);
      assert.ok(existsSync(journal(p)), 'the dead pull left its journal');
      assert.ok(existsSync(join(p.root, ...ORIGINS_LOCK.split('/'))), 'and its write lock');
      assert.equal(existsSync(join(p.out, 'a')), after !== 2);
      const r = await pull(p, [['c', 'C.']]);
      assert.ok(r.ok, JSON.stringify(r.diagnostics));
      assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity, d.file]), [['MCP_PULL_RECOVERED', 'warning', PULL_JOURNAL]]);
      assert.match(r.diagnostics[0]?.message ?? '', /undone.*out\/a, out\/b/);
      assert.deepEqual(readdirSync(p.out).sort(), ['a', 'c'], 'no b, no scratch folder, no earlier copy aside');
      assert.equal(notes(p, 'a'), 'Old.\n');
      assert.deepEqual(Object.keys(records(p)), ['out/a', 'out/c']);
      assert.deepEqual(records(p)['out/a'], (JSON.parse(before.toString()) as { skills: Record<string, unknown> }).skills['out/a']);
      assert.equal(existsSync(journal(p)), false);
      assert.deepEqual(readdirSync(join(p.root, '.skillctl')).sort(), ['mcp-origins.json'], 'no journal, no lock, no temporary file');
    });
  }

  it('killed after rename 5 (the origin records written, the earlier copy not yet removed): finished', async () => {
    const p = project();
    assert.ok((await pull(p, [['a', 'Old.']])).ok);
    killedPull(p, 5, DEAD);
    assert.equal(hidden(p).filter((e) => e.startsWith('.a.old-')).length, 1, 'the earlier copy is still aside');
    const r = await pull(p, [['c', 'C.']]);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.match(r.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'), /^MCP_PULL_RECOVERED .*finished/);
    assert.deepEqual(readdirSync(p.out).sort(), ['a', 'b', 'c']);
    assert.equal(notes(p, 'a'), 'New.\n');
    assert.equal(notes(p, 'b'), 'B.\n');
    assert.deepEqual(Object.keys(records(p)), ['out/a', 'out/b', 'out/c']);
    assert.equal(existsSync(journal(p)), false);
  });

  it('a pull the dead one blocked with a half-placed folder (a collision as read) is let in once it is put right', async () => {
    const p = project();
    killedPull(p, 3, DEAD);
    // out/a is the dead pull's, with no origin record: as read, a local skill of that name.
    assert.ok(existsSync(join(p.out, 'a')));
    const r = await pull(p, [['a', 'A again.']]);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.deepEqual(readdirSync(p.out), ['a']);
    assert.equal(notes(p, 'a'), 'A again.\n');
  });

  it('a folder something else put where the dead pull had placed one is left alone, and named', async () => {
    const p = project();
    killedPull(p, 3, DEAD);
    rmSync(join(p.out, 'b'), { recursive: true });
    mkdirSync(join(p.out, 'b'));
    writeFileSync(join(p.out, 'b', 'mine.txt'), 'mine\n');
    const r = await pull(p, [['c', 'C.']]);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.deepEqual(readdirSync(p.out).sort(), ['b', 'c'], 'the dead pull undone: its a removed (nothing was replaced), b not its own');
    assert.deepEqual(readdirSync(join(p.out, 'b')), ['mine.txt']);
  });

  it('a journal skillctl did not write is OUTPUT_UNWRITABLE, and kept: nothing is moved on its word', async () => {
    const p = project();
    killedPull(p, 3, DEAD);
    const text = readFileSync(journal(p), 'utf8').replace(/"scratch": "[^"]*"/, '"scratch": "/etc"');
    writeFileSync(journal(p), text);
    await assert.rejects(pull(p, [['c', 'C.']]), (err: Error & { code?: string }) => err.code === 'OUTPUT_UNWRITABLE' && err.message.includes(PULL_JOURNAL));
    assert.ok(existsSync(journal(p)));
    assert.deepEqual(readdirSync(p.out).filter((e) => !e.startsWith('.')).sort(), ['a', 'b']);
  });

  it('a journal whose scratch folder lies elsewhere, or belongs to another skill, is refused and kept: nothing is moved', async () => {
    for (const forged of [
      // A well-formed scratch name, but in another folder than its destination.
      (scratch: string): string => join(dirname(dirname(scratch)), basename(scratch)),
      // Beside the destination, but named after another skill.
      (scratch: string): string => join(dirname(scratch), basename(scratch).replace(/^\.[^.]+\./, '.zz.')),
    ]) {
      const p = project();
      killedPull(p, 3, DEAD);
      const doc = JSON.parse(readFileSync(journal(p), 'utf8')) as { moves: { scratch: string }[] };
      for (const m of doc.moves) m.scratch = forged(m.scratch);
      writeFileSync(journal(p), JSON.stringify(doc));
      await assert.rejects(pull(p, [['c', 'C.']]), (err: Error & { code?: string }) => err.code === 'OUTPUT_UNWRITABLE' && err.message.includes(PULL_JOURNAL));
      assert.ok(existsSync(journal(p)));
      assert.deepEqual(readdirSync(p.out).filter((e) => !e.startsWith('.')).sort(), ['a', 'b']);
    }
  });

  it('the scratch folders of a pull killed while it waited for the lock are removed by the next pull', async () => {
    const p = project();
    // This process holds the lock, alive: the child writes its scratch folder, then waits.
    mkdirSync(join(p.root, '.skillctl'));
    writeFileSync(join(p.root, ...ORIGINS_LOCK.split('/')), `${JSON.stringify({ pid: process.pid, hostname: testFileLock().hostname, token: 'test' })}\n`);
    const child = spawn(process.execPath, [KILLED_PULL, p.root, p.out, '0', 'a:A.'], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    const written = (): boolean => hidden(p).some((e) => readdirSync(join(p.out, e)).length === 2);
    for (let i = 0; i < 600 && !(existsSync(p.out) && written()); i++) await sleep(50);
    assert.ok(written(), 'the child wrote its scratch folder');
    child.kill('SIGKILL');
    assert.deepEqual(await exited, [null, 'SIGKILL']);
    assert.equal(hidden(p).length, 1, 'the dead pull left its scratch folder');
    rmSync(join(p.root, ...ORIGINS_LOCK.split('/')));
    const r = await pull(p, [['c', 'C.']]);
    assert.ok(r.ok, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.diagnostics, [], 'no journal: the dead pull had not begun its renames');
    assert.deepEqual(readdirSync(p.out), ['c']);
  });
});
