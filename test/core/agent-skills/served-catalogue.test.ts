// Reads of single files share one pass of checks for READ_PASS_MS (served-catalogue.ts): what a
// shared pass may miss (a change elsewhere in the skill, for at most READ_PASS_MS), what it never
// misses (the file served is checked when it is opened), and that a listing and `get` never
// share. A lookup for a directory shares only a pass another one began, for SHARED_PASS_COSTS
// times that pass's cost. The clock is a variable, so the window is exact.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync, type statSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { READ_PASS_MS, readServedFile, ServedFileChanged, servedCatalogue, ServedWalker, SETTLE_MS, SHARED_PASS_COSTS } from '../../../src/core/agent-skills/index.js';
import { tempDir } from '../../helpers/tmp.js';

// A coarse file-system clock stamps changes made within one tick alike: the tests change files a tick later.
const TICK_MS = 30;

function skill(dir: string, name: string, files: Record<string, string> = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Count the words of a text. Use when asked how long a text is.\n---\n\n# ${name}\n`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A catalogue over `root` with a clock the test moves; every file on disk is settled for it. */
function catalogue(root: string): { c: ReturnType<typeof servedCatalogue>; advance(ms: number): void } {
  let now = Date.now() + 10 * SETTLE_MS;
  return { c: servedCatalogue([{ dir: root, label: 'skills' }], () => now), advance: (ms) => void (now += ms) };
}

const NESTED = 'word-count/references/inner/a.md';

describe('servedCatalogue.lookup: reads of single files share a pass for READ_PASS_MS', () => {
  it('a nested skill made within the window is found by the first file read after it', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/inner/a.md': 'alpha\n' });
    const { c, advance } = catalogue(root);
    assert.equal((await c.lookup(NESTED, { file: true }))?.path, 'word-count');
    await sleep(TICK_MS);
    skill(join(root, 'word-count', 'references', 'inner'), 'inner');
    advance(READ_PASS_MS - 1);
    // Within the window the pass's checks stand: the outer skill, whose files include the new SKILL.md's folder.
    assert.equal((await c.lookup(NESTED, { file: true }))?.path, 'word-count');
    advance(1);
    assert.equal((await c.lookup(NESTED, { file: true }))?.path, 'word-count/references/inner');
  });

  it('a lookup for a directory, get and list do not share the pass of a file read, even within its window', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/inner/a.md': 'alpha\n' });
    const { c } = catalogue(root);
    assert.equal((await c.lookup(NESTED, { file: true }))?.path, 'word-count');
    await sleep(TICK_MS);
    skill(join(root, 'word-count', 'references', 'inner'), 'inner');
    assert.equal((await c.lookup(NESTED))?.path, 'word-count/references/inner');
    rmSync(join(root, 'word-count', 'references', 'inner', 'SKILL.md'));
    await sleep(TICK_MS);
    assert.equal(await c.get('word-count/references/inner'), undefined);
    skill(join(root, 'word-count', 'references', 'inner'), 'inner');
    assert.deepEqual((await c.list()).skills.map((s) => s.path), ['word-count', 'word-count/references/inner']);
  });

  it('a file edited within the window is never served from the shared pass: its bytes no longer match the entry', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/a.md': 'alpha\n' });
    const { c } = catalogue(root);
    const first = await c.lookup('word-count/references/a.md', { file: true });
    const entry = first?.files.find((f) => f.path === 'references/a.md');
    assert.ok(first && entry);
    await sleep(TICK_MS);
    writeFileSync(join(root, 'word-count', 'references', 'a.md'), 'omega\n');
    const shared = await c.lookup('word-count/references/a.md', { file: true });
    assert.equal(shared, first);
    await assert.rejects(readServedFile(shared.dir, entry), ServedFileChanged);
  });

  it('a folder on the path swapped for a link to a skill is not entered, in a shared pass or not', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/a.md': 'alpha\n' });
    const outside = tempDir();
    skill(join(outside, 'elsewhere'), 'elsewhere');
    const { c, advance } = catalogue(root);
    assert.equal((await c.lookup('word-count/references/a.md', { file: true }))?.path, 'word-count');
    await sleep(TICK_MS);
    symlinkSync(join(outside, 'elsewhere'), join(root, 'word-count', 'linked'));
    advance(READ_PASS_MS);
    // `linked` is a link: never a skill of its own; and the outer skill's shape changed, so it is listed afresh (and refused: a link in it).
    assert.equal(await c.lookup('word-count/linked/SKILL.md', { file: true }), undefined);
    assert.equal(await c.get('word-count/linked'), undefined);
  });
});

describe('servedCatalogue.lookup for a directory: a pass another one began is shared for SHARED_PASS_COSTS times its cost', () => {
  /** A catalogue whose clock moves `step` ms at every reading of it, so a pass costs some time. */
  function stepping(root: string, step: number): { c: ReturnType<typeof servedCatalogue>; advance(ms: number): void; reads(): number } {
    let now = Date.now() + 10 * SETTLE_MS;
    let reads = 0;
    const clock = (): number => {
      reads++;
      return (now += step);
    };
    return { c: servedCatalogue([{ dir: root, label: 'skills' }], clock), advance: (ms) => void (now += ms), reads: () => reads };
  }

  it('a change within the window is seen once the window has passed, not before', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/inner/a.md': 'alpha\n' });
    const { c, advance, reads } = stepping(root, 1);
    const before = reads();
    assert.equal((await c.lookup('word-count/references/inner'))?.path, 'word-count');
    // The pass cost what the clock moved while it ran (one ms a reading).
    const cost = reads() - before;
    await sleep(TICK_MS);
    skill(join(root, 'word-count', 'references', 'inner'), 'inner');
    // The next lookup reads the clock once to decide: well within SHARED_PASS_COSTS times the cost.
    assert.equal((await c.lookup('word-count/references/inner'))?.path, 'word-count', 'shared: the pass before the change');
    advance(SHARED_PASS_COSTS * cost);
    assert.equal((await c.lookup('word-count/references/inner'))?.path, 'word-count/references/inner', 'a pass of its own');
  });

  it('a walk of 300 directories, a lookup each: their shape is checked in a few passes, not in one a lookup', async () => {
    const root = tempDir();
    const dirs = 300;
    skill(join(root, 'wide'), 'wide', Object.fromEntries(Array.from({ length: dirs }, (_, i) => [`d${i}/f.md`, `${i}\n`])));
    await sleep(TICK_MS);
    const { c } = stepping(root, 1);
    // Every directory check is a statSync (served-walk.ts): counted through the module's export.
    const fs = createRequire(import.meta.url)('node:fs') as { statSync: typeof statSync };
    const real = fs.statSync;
    let stats = 0;
    fs.statSync = ((...args: Parameters<typeof statSync>) => {
      stats++;
      return real(...args);
    }) as typeof statSync;
    syncBuiltinESMExports();
    try {
      for (let i = 0; i < dirs; i++) assert.equal((await c.lookup(`wide/d${i}`))?.path, 'wide');
    } finally {
      fs.statSync = real;
      syncBuiltinESMExports();
    }
    // A pass a lookup (as before) stat'ed every directory each time: 300 x 301. Shared: a pass or a few.
    assert.ok(stats < 3 * dirs, `${stats} directory stats for a walk of ${dirs} directories`);
  });

  it('under a clock that does not move, a pass costs nothing and no lookup for a directory shares one', async () => {
    const root = tempDir();
    skill(join(root, 'word-count'), 'word-count', { 'references/inner/a.md': 'alpha\n' });
    const { c } = catalogue(root);
    assert.equal((await c.lookup('word-count/references/inner'))?.path, 'word-count');
    await sleep(TICK_MS);
    skill(join(root, 'word-count', 'references', 'inner'), 'inner');
    assert.equal((await c.lookup('word-count/references/inner'))?.path, 'word-count/references/inner');
  });
});

describe('ServedWalker.skillFoldersAlong: the folders of every leading run of a path, in one walk down it', () => {
  it('the root itself for its name, then each folder below it that holds a skill; .git, a file or a link ends the walk', () => {
    const root = join(tempDir(), 'word-count');
    skill(root, 'word-count');
    skill(join(root, 'word-count'), 'word-count', { 'refs/inner/a.md': 'alpha\n', '.git/SKILL.md': 'not a skill\n' });
    skill(join(root, 'word-count', 'refs', 'inner'), 'inner');
    symlinkSync(join(root, 'word-count', 'refs'), join(root, 'word-count', 'linked'));
    const walker = new ServedWalker(() => Date.now() + 10 * SETTLE_MS);
    walker.begin();
    const along = (path: string): string[][] => walker.skillFoldersAlong(root, 'skills', path).map((run) => run.map((f) => `${f.path} ${f.label}`));
    const both = ['word-count skills', 'word-count skills/word-count'];
    assert.deepEqual(along('word-count/refs/inner/a.md'), [both, [], ['word-count/refs/inner skills/word-count/refs/inner']]);
    for (const path of ['word-count/.git/SKILL.md', 'word-count/linked/inner/a.md', 'word-count/../word-count']) assert.deepEqual(along(path), [both], path);
    assert.deepEqual(along('refs/inner'), []);
    assert.deepEqual(walker.skillFoldersAlong(root, 'skills', 'word-count/refs/inner')[2]?.map((f) => f.dir), [join(root, 'word-count', 'refs', 'inner')]);
  });
});
