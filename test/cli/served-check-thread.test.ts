// The checker thread of `skillctl mcp --skills` (src/cli/served-check-thread.ts) makes a share of
// each listing's file checks. What it may never do is let a changed file keep its old digest: a
// file edited in place (same size, so only its times differ) in a skill the thread checks, and in
// one this thread checks, is hashed again at the next listing; a thread that has stopped leaves
// every check to this thread; and a thread that answered while this one was busy is not given up
// for it. The thread is the real worker program, started from dist/src.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs, { appendFileSync, lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { DigestCache, identityOf, servedCatalogue, ServedWalker, SETTLE_MS, type FileIdentity, type IdentityChecker, type ServedSkills } from '../../src/core/agent-skills/index.js';
import { ANSWER_WITHIN_MS, checkerOn } from '../../src/cli/served-check-thread.js';
import { tempDir } from '../helpers/tmp.js';

// A coarse file-system clock stamps changes made within one tick alike: files change a tick later.
const TICK_MS = 30;
const SKILLS = 6;

function thread(): { checker: IdentityChecker; worker: Worker } {
  const program = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'cli', 'served-check-worker.js')).href;
  const worker = new Worker(`import(${JSON.stringify(program)}).then((m) => m.checkWorkerMain())`, { eval: true });
  return { checker: checkerOn(worker), worker };
}

/**
 * Resolves once the thread has loaded its program and answers: a check numbered 0, which the
 * checker never sends (its checks count from 1) and so ignores. Under load, loading can take
 * longer than a listing waits for an answer, and the thread would be given up.
 */
async function loaded(worker: Worker): Promise<void> {
  const answered = once(worker, 'message');
  // The checker unrefs the thread; waiting for it must keep the test's process alive.
  worker.ref();
  worker.postMessage({ add: [], remove: [], check: 0 });
  await answered;
  worker.unref();
}

/** The checker, how many sets it answered "unchanged" for at each check, and the folder of each set it was given, then told to drop. */
function spied(checker: IdentityChecker): { checker: IdentityChecker; answers: number[]; removed: () => string[] } {
  const answers: number[] = [];
  const folders = new Map<number, string>();
  const removed: number[] = [];
  const check = (): (() => Promise<ReadonlySet<number>>) => {
    const wait = checker.check();
    return () =>
      wait().then((ids) => {
        answers.push(ids.size);
        return ids;
      });
  };
  const add = (paths: readonly string[], identities: readonly FileIdentity[]): number | undefined => {
    const id = checker.add(paths, identities);
    if (id !== undefined) folders.set(id, basename(dirname(paths[0] as string)));
    return id;
  };
  const remove = (id: number): void => {
    removed.push(id);
    checker.remove(id);
  };
  return { checker: { add, remove, flush: () => checker.flush(), check, close: () => checker.close() }, answers, removed: () => removed.map((id) => folders.get(id) ?? '?').sort() };
}

/** Every path this thread lstats until `stop()` (node:fs patched, and its ES module exports synced). */
function lstatsDuring(): { paths: string[]; stop(): void } {
  const paths: string[] = [];
  const patched = fs as { lstatSync: typeof fs.lstatSync };
  const original = fs.lstatSync;
  patched.lstatSync = ((path: string, opts?: object) => {
    paths.push(String(path));
    return original(path, opts);
  }) as typeof fs.lstatSync;
  syncBuiltinESMExports();
  return {
    paths,
    stop() {
      patched.lstatSync = original;
      syncBuiltinESMExports();
    },
  };
}

function corpus(): string {
  const root = tempDir();
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${i}`;
    mkdirSync(join(root, name, 'references'), { recursive: true });
    writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Skill ${i}. Use when testing the checker.\n---\n\n# ${name}\n`);
    for (let j = 0; j < 3; j++) writeFileSync(join(root, name, 'references', `r${j}.md`), `reference ${j} of ${name}\n`);
  }
  return root;
}

const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

function digestOf(listed: ServedSkills, skill: string, path: string): string | undefined {
  return listed.skills.find((s) => s.path === skill)?.files.find((f) => f.path === path)?.digest;
}

describe('the checker thread of mcp --skills', () => {
  it('a file edited in place is hashed again, in a skill the thread checks and in one this thread checks', async () => {
    const root = corpus();
    const { checker, worker } = thread();
    try {
      // Every file on disk is settled for this clock (served-walk.ts).
      const c = servedCatalogue([{ dir: root, label: 'skills' }], () => Date.now() + 10 * SETTLE_MS, checker);
      const first = await c.list();
      assert.equal(first.skills.length, SKILLS);
      // Unchanged: the same entries, the thread's share answered by the thread.
      const again = await c.list();
      assert.deepEqual(again.skills, first.skills);
      assert.equal(again.skills[1], first.skills[1]);
      await sleep(TICK_MS);
      // Same sizes: only the times say they changed. Skill 0 is this thread's (one in three), 1 and 2 the thread's.
      for (const i of [0, 1, 2]) writeFileSync(join(root, `skill-${i}`, 'references', 'r1.md'), `reference 1 of skill-${i}!`.padEnd(`reference 1 of skill-${i}\n`.length, '\n'));
      const after = await c.list();
      for (const i of [0, 1, 2]) {
        const text = `reference 1 of skill-${i}!`.padEnd(`reference 1 of skill-${i}\n`.length, '\n');
        assert.equal(digestOf(after, `skill-${i}`, 'references/r1.md'), sha(text), `skill-${i}`);
      }
      assert.equal(after.skills[4], first.skills[4]);
    } finally {
      await worker.terminate();
    }
  });

  it('a .skillignore that ignores itself, edited in place, is checked: in a skill this thread checks and in one the thread checks', async () => {
    const root = corpus();
    // Skill 0 is this thread's share, skill 1 the thread's (served-check-thread.ts: one in three stays here).
    for (const i of [0, 1]) {
      writeFileSync(join(root, `skill-${i}`, '.skillignore'), '.skillignore\n');
      writeFileSync(join(root, `skill-${i}`, 'secret.env'), 'TOKEN=hunter2\n');
    }
    const { checker: real, worker } = thread();
    const { checker, answers } = spied(real);
    try {
      await loaded(worker);
      const c = servedCatalogue([{ dir: root, label: 'skills' }], () => Date.now() + 10 * SETTLE_MS, checker);
      const paths = (listed: ServedSkills, i: number): string[] | undefined => listed.skills.find((s) => s.path === `skill-${i}`)?.files.map((f) => f.path);
      const first = await c.list();
      for (const i of [0, 1]) assert.ok(paths(first, i)?.includes('secret.env'), `skill-${i}`);
      await c.list();
      await sleep(TICK_MS);
      for (const i of [0, 1]) appendFileSync(join(root, `skill-${i}`, '.skillignore'), 'secret.env\n');
      const after = await c.list();
      for (const i of [0, 1]) assert.deepEqual(paths(after, i), ['SKILL.md', 'references/r0.md', 'references/r1.md', 'references/r2.md'], `skill-${i}`);
      // The thread holds four skills' sets (1, 2, 4, 5): all unchanged, then all but skill 1's.
      assert.deepEqual(answers, [0, 4, 3]);
    } finally {
      await worker.terminate();
    }
  });

  it("a listing's own work that outlasts the wait does not give the thread up: the wait starts after it", async () => {
    const root = corpus();
    const { checker, worker } = thread();
    let exited = false;
    worker.on('exit', () => (exited = true));
    // This thread's work between the request and the wait: the walk of the directories, synchronous.
    const busy = (): void => {
      for (const end = Date.now() + ANSWER_WITHIN_MS + 200; Date.now() < end; );
    };
    try {
      await loaded(worker);
      // The first set stays on this thread (one in three), the second is the thread's.
      const paths = [0, 1].map((i) => join(root, `skill-${i}`, 'SKILL.md'));
      const ids = paths.map((p) => checker.add([p], [identityOf(lstatSync(p))]));
      assert.equal(ids[0], undefined);
      // As a listing starts in the server: from another callback than the thread's messages
      // (after one of those, the port would take the answer queued meanwhile before any timer).
      await setImmediate();
      const wait = checker.check();
      busy();
      // The answer came while this thread was busy, and is taken: the set is unchanged.
      assert.deepEqual([...(await wait())], [ids[1]]);
      // The same through a listing's checks (served-cache.ts): the thread is still there after.
      await setImmediate();
      await new DigestCache(new ServedWalker(Date.now), checker).checkFiles(busy);
      await sleep(TICK_MS);
      assert.equal(exited, false);
      assert.deepEqual([...(await checker.check()())], [ids[1]]);
    } finally {
      await worker.terminate();
    }
  });

  it('a skill moved away or no longer valid is no longer kept: its files are checked by neither thread', async () => {
    const root = corpus();
    const away = tempDir();
    const { checker: real, worker } = thread();
    const { checker, answers, removed } = spied(real);
    try {
      await loaded(worker);
      const c = servedCatalogue([{ dir: root, label: 'skills' }], () => Date.now() + 10 * SETTLE_MS, checker);
      await c.list();
      await c.list();
      // Skill 0 is this thread's, 1 and 2 the thread's; 3 this thread's, 4 and 5 the thread's.
      for (const i of [0, 1]) renameSync(join(root, `skill-${i}`), join(away, `skill-${i}`));
      writeFileSync(join(root, 'skill-2', 'SKILL.md'), '---\nname: skill-2\n---\n\n# no description: not served\n');
      assert.deepEqual((await c.list()).skills.map((s) => s.path), ['skill-3', 'skill-4', 'skill-5']);
      assert.deepEqual(removed(), ['skill-1', 'skill-2']);
      // The next listing checks only what is served: the thread its two sets, this thread no file of skill 0.
      const stats = lstatsDuring();
      try {
        await c.list();
      } finally {
        stats.stop();
      }
      assert.deepEqual(answers, [0, 4, 2, 2]);
      assert.deepEqual(stats.paths.filter((p) => p.startsWith(join(root, 'skill-0'))), []);
      // What this thread does check, it lstats: skill 3's files.
      assert.ok(stats.paths.some((p) => p.startsWith(join(root, 'skill-3', 'references'))));
    } finally {
      await worker.terminate();
    }
  });

  it('a thread that has stopped leaves every check to this thread', async () => {
    const root = corpus();
    const { checker, worker } = thread();
    const c = servedCatalogue([{ dir: root, label: 'skills' }], () => Date.now() + 10 * SETTLE_MS, checker);
    await c.list();
    await worker.terminate();
    await sleep(TICK_MS);
    writeFileSync(join(root, 'skill-2', 'references', 'r0.md'), 'reference 0 of skill-2 changed\n');
    assert.equal(digestOf(await c.list(), 'skill-2', 'references/r0.md'), sha('reference 0 of skill-2 changed\n'));
  });
});
