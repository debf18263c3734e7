// verify-pins over a large lock starts its worker threads before the CLI loads
// (src/entry/early-pool.ts): the command must take those threads rather than start more, give the
// same report as on one thread, and end at once when it never needs them.
import assert from 'node:assert/strict';
import { cp, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { earlyLockPath } from '../../src/entry/early-pool.js';
import { EARLY_LOCK_BYTES } from '../../src/entry/pool.js';
import { json, skillctl } from '../helpers/cli.js';
import { editManifest, projects } from '../helpers/project.js';
import { workerTrace } from '../helpers/worker-trace.js';

describe('the lock an early start looks at', () => {
  it('is the project lock of a plain verify-pins, or the one --lock names', () => {
    assert.equal(earlyLockPath(['verify-pins']), 'pins/skills.lock.json');
    assert.equal(earlyLockPath(['verify-pins', '--json', '--quiet']), 'pins/skills.lock.json');
    assert.equal(earlyLockPath(['verify-pins', '--lock', 'other/lock.json']), 'other/lock.json');
    assert.equal(earlyLockPath(['verify-pins', '--lock=other/lock.json']), 'other/lock.json');
  });

  it('is none for a lock from stdin or git, for help, and for other commands', () => {
    for (const argv of [
      ['verify-pins', '--lock', '-'],
      ['verify-pins', '--lock'],
      ['verify-pins', '--staged'],
      ['verify-pins', '--rev', 'HEAD'],
      ['verify-pins', '--rev=HEAD'],
      ['verify-pins', '--help'],
      ['verify-pins', '-h'],
      ['verify-pins', '--', 'x'],
      ['validate', 'pins/skills.lock.json'],
      ['--json', 'verify-pins'],
      [],
    ]) {
      assert.equal(earlyLockPath(argv), undefined, argv.join(' '));
    }
  });
});

describe('verify-pins with threads started early', () => {
  const { project, cleanup } = projects();
  after(cleanup);
  let root: string;

  before(async () => {
    root = await project();
    // 80 bundles: a lock over the early-start size, and pins enough to share out.
    for (let i = 0; i < 80; i++) {
      const dir = join(root, 'manifests', `b${String(i).padStart(2, '0')}`);
      await cp(join(root, 'manifests', 'hello'), dir, { recursive: true });
      await editManifest(dir, (t) => t.replace('skill_id: demo.hello', `skill_id: demo.b${i}`));
    }
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    assert.ok((await stat(join(root, 'pins', 'skills.lock.json'))).size >= EARLY_LOCK_BYTES, 'the lock is large enough for an early start');
  });

  it('takes the early thread instead of starting another, and reports as one thread does', () => {
    const threads = workerTrace(root);
    const two = skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '2', ...threads.env } });
    assert.equal(two.code, 0, two.stdout);
    assert.equal(threads.started(), 1, 'one worker thread, started early and taken');
    const one = skillctl(['verify-pins', '--json'], { cwd: root, env: { SKILLCTL_THREADS: '1', ...threads.env } });
    assert.equal(threads.started(), 0, 'SKILLCTL_THREADS=1: none, early or late');
    assert.deepEqual(json(two), json(one));
  });

  it('ends at once, with its own exit status, when the command never needs the thread', () => {
    const threads = workerTrace(root);
    const bad = skillctl(['verify-pins', '--min-signers', 'many'], { cwd: root, env: { SKILLCTL_THREADS: '2', ...threads.env } });
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(threads.started(), 1, 'the guess started a thread before the arguments were parsed');
    const elsewhere = skillctl(['verify-pins', '--json', '--lock', 'missing.lock.json'], { cwd: root, env: { SKILLCTL_THREADS: '2', ...threads.env } });
    assert.equal(elsewhere.code, 2, elsewhere.stdout);
    assert.equal(threads.started(), 0, 'no lock there, no early thread');
  });
});
