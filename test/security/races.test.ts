// Threat: check-then-use races. While a built-in works, another process swaps a directory inside
// the grant with a symlink leading outside it, atomically and thousands of times a second
// (renameat2 RENAME_EXCHANGE, test/helpers/swapper.py). Whatever the timing, no read, listing,
// search or write may reach the outside: each run either works inside the grant or is refused.
// The same for verify-pins: a bundle's directory and a link to outside trade places while it walks.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { asyncDirOps, syncDirOps } from '../../src/core/bundle/index.js';
import { openLock, verifySkillPin, type SkillPin } from '../../src/core/pins/index.js';
import type { BuiltinOutcome } from '../../src/core/run/index.js';
import { runTarget, scratch, SECRET } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { pinnedProject } from '../helpers/pins.js';
import { ROOT } from '../helpers/paths.js';
import { snapshot } from '../helpers/project.js';
import { writeLock } from '../helpers/run.js';
import { skillContext } from '../helpers/skill-context.js';
import { runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

/** Runs per attack: the issue asks for at least 200 against the swapping process. */
const RUNS = 200;

interface Swap {
  readonly proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts swapping `a` and `b`; resolves once the first swap happened. */
function swap(a: string, b: string): Promise<Swap> {
  const proc = spawn('python3', [join(ROOT, 'test', 'helpers', 'swapper.py'), a, b], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.stdout.once('data', () =>
      resolve({
        proc,
        stop: () =>
          new Promise<void>((done) => {
            proc.once('exit', () => done());
            proc.kill('SIGKILL');
          }),
      }),
    );
  });
}

/** What a run's outcome shows: its status, and whether anything from outside leaked into it. */
function leaked(o: BuiltinOutcome): boolean {
  return JSON.stringify(o).includes(SECRET);
}

describe('threat: check-then-use races (a directory swapped for a symlink while the skill works)', () => {
  const tmp = tempDir('skillctl-race-');
  let root: string;
  let proj: string;
  let outside: string;

  before(async () => {
    root = realpathSync(tmp);
    proj = join(root, 'proj');
    outside = join(root, 'outside');
    await mkdir(join(proj, 'ws', 'data', 'sub'), { recursive: true });
    await mkdir(join(outside, 'sub'), { recursive: true });
    for (const dir of [join(proj, 'ws', 'data'), outside]) {
      const inside = dir !== outside;
      await writeFile(join(dir, 'x.txt'), inside ? 'inside\n' : `${SECRET}\n`);
      await writeFile(join(dir, 'sub', 'y.txt'), inside ? 'inside\n' : `${SECRET}\n`);
    }
    // ws/data (a directory inside the grant) and ws/link (a symlink to outside/) trade places.
    await symlink(outside, join(proj, 'ws', 'link'));
  });

  /** Runs `attempt` RUNS times while ws/data and ws/link swap; counts the statuses it ended with. */
  async function race(attempt: () => Promise<BuiltinOutcome>): Promise<Record<string, number>> {
    const before = await snapshot(outside);
    const s = await swap(join(proj, 'ws', 'data'), join(proj, 'ws', 'link'));
    const seen: Record<string, number> = {};
    let escapes = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const o = await attempt();
        if (leaked(o)) escapes++;
        const key = o.status === 'denied' ? `denied:${o.decision.code}` : o.status === 'error' ? `error:${o.error.code}` : o.status;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await s.stop();
      // Put the directory back where it started, whichever way the last swap left them.
      if ((await lstat(join(proj, 'ws', 'data'))).isSymbolicLink()) {
        await rename(join(proj, 'ws', 'data'), join(proj, 'ws', 'tmp'));
        await rename(join(proj, 'ws', 'link'), join(proj, 'ws', 'data'));
        await rename(join(proj, 'ws', 'tmp'), join(proj, 'ws', 'link'));
      }
    }
    assert.equal(escapes, 0, `runs that reached outside the grant: ${JSON.stringify(seen)}`);
    assert.deepEqual(await snapshot(outside), before, 'nothing outside the grant changed');
    return seen;
  }

  it(`fs.read_text: ${RUNS} reads of ws/data/x.txt, zero escapes`, async () => {
    const { ctx } = await skillContext('fs.read_text', { cwd: proj, policy: { read: ['ws'] } });
    const seen = await race(() => runSkill('fs.read_text', { path: 'ws/data/x.txt' }, ctx));
    assert.ok((seen.ok ?? 0) + (seen['denied:POLICY_PATH_DENIED'] ?? 0) > 0, JSON.stringify(seen));
  });

  it(`fs.read_tree: ${RUNS} listings of ws/data, zero escapes`, async () => {
    const { ctx } = await skillContext('fs.read_tree', { cwd: proj, policy: { read: ['ws'] } });
    await race(async () => {
      const o = await runSkill('fs.read_tree', { root: 'ws/data', max_depth: 4 }, ctx);
      // A listing names files; reading one is the leak that matters, but a listing of outside/ is one too.
      if (o.status === 'ok') {
        const entries = (o.output as { entries: { path: string }[] }).entries.map((e) => e.path);
        assert.ok(!entries.some((e) => e.includes('OUTSIDE')), JSON.stringify(entries));
      }
      return o;
    });
  });

  it(`search.ripgrep (in-process search): ${RUNS} searches of ws/data, zero escapes`, async () => {
    // No rg on the grant: the skill's own walk and reads do the search.
    const { ctx } = await skillContext('search.ripgrep', { cwd: proj, policy: { read: ['ws'] } });
    await race(() => runSkill('search.ripgrep', { pattern: 'SECRET|inside', paths: ['ws/data'] }, ctx));
  });

  it(`fs.write_patch: ${RUNS} patches creating ws/data/new-N.txt, nothing written outside, no temporary file left`, async () => {
    const { ctx } = await skillContext('fs.write_patch', { cwd: proj, policy: { read: ['ws'], write: ['ws'] } });
    let n = 0;
    await race(() => {
      n++;
      return runSkill('fs.write_patch', { base: 'ws/data', unified_diff: `--- /dev/null\n+++ b/sub/new-${n}.txt\n@@ -0,0 +1 @@\n+written ${n}\n` }, ctx);
    });
    const leftovers = [...(await readdir(join(proj, 'ws', 'data', 'sub'))), ...(await readdir(join(outside, 'sub')))].filter((f) => f.endsWith('.tmp'));
    assert.deepEqual(leftovers, []);
    assert.equal((await readdir(join(outside, 'sub'))).filter((f) => f.startsWith('new-')).length, 0);
    // The files that were written are whole and where the patch said.
    for (const f of (await readdir(join(proj, 'ws', 'data', 'sub'))).filter((x) => x.startsWith('new-'))) {
      assert.match(await readFile(join(proj, 'ws', 'data', 'sub', f), 'utf8'), /^written \d+\n$/);
    }
  });

});

describe('threat: check-then-use races (a pinned script swapped between its verification and its run)', () => {
  const sc = scratch('skillctl-race-pin-');
  const SWAP_RUNS = 24;

  before(async () => {
    const project = sc.work;
    await writeBundle(join(project, 'skills', 'tool'), {
      skill_id: 'race.tool',
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: { type: 'object', properties: { ok: { type: 'string' } } } })],
      files: { 'main.js': 'process.stdout.write(JSON.stringify({ ok: "pinned" }))\n' },
    });
    const m = JSON.parse(await readFile(join(project, 'skills', 'tool', 'skill.json'), 'utf8')) as Record<string, string>;
    await writeLock(project, [{ skill_id: 'race.tool', skill_version: '0.1.0', source: 'skills/tool', manifest_digest: m.manifest_digest as `sha256:${string}`, content_digest: m.content_digest as `sha256:${string}` }]);
    await writeFile(join(project, 'evil.js'), `process.stdout.write(JSON.stringify({ ok: "${SECRET}" }))\n`);
    await writeFile(join(project, 'race.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [node]\n');
  });

  it(`${SWAP_RUNS} runs of a pinned node skill while its main.js and another script trade places: each runs the pinned script or is refused (RUN_BUNDLE_INVALID), never the other`, async () => {
    const s = await swap(join(sc.work, 'skills', 'tool', 'main.js'), join(sc.work, 'evil.js'));
    const seen: Record<string, number> = {};
    try {
      for (let i = 0; i < SWAP_RUNS; i++) {
        const r = await runTarget('race.tool', {}, { cwd: sc.work, policy: 'race.policy.yaml' });
        assert.ok(!r.stdout.includes(SECRET), `a run ran the swapped-in script: ${r.stdout}`);
        const key = r.exit === 0 ? `ok:${(r.output as { ok: string }).ok}` : `exit ${r.exit}:${r.errors.join(',')}`;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await s.stop();
    }
    // Refused: the copy holds the other script (its digest does not match), or a file moved out of the bundle while it was copied.
    const allowed = ['ok:pinned', 'exit 1:CONTENT_DIGEST_MISMATCH,RUN_BUNDLE_INVALID', 'exit 1:RUN_BUNDLE_INVALID'];
    for (const key of Object.keys(seen)) assert.ok(allowed.includes(key), JSON.stringify(seen));
    assert.ok((seen['ok:pinned'] ?? 0) > 0, `no run got through while the files swapped: ${JSON.stringify(seen)}`);
  });
});


describe('threat: check-then-use races (a bundle directory swapped for a symlink while verify-pins walks it)', () => {
  for (const [flavour, ops] of [
    ['thread pool', asyncDirOps],
    ['blocking', syncDirOps],
  ] as const) {
    it(`${flavour}: ${RUNS} verifications of a pin while its data/ and a link to outside trade places: each verifies or finds BUNDLE_SYMLINK, never reads outside`, async () => {
      const { root } = await pinnedProject([]);
      // Outside: other bytes under the pinned file's name, and a FIFO only a walk that entered it would find.
      const outside = tempDir('skillctl-race-outside-');
      await writeFile(join(outside, 'words.txt'), `${SECRET}\n`);
      execFileSync('mkfifo', [join(outside, 'leak')]);
      await symlink(outside, join(root, 'data-link'));
      const opened = await openLock(join(root, 'pins', 'skills.lock.json'), { label: 'pins/skills.lock.json', ops });
      if (opened.context?.format !== 'skillctl') assert.fail(JSON.stringify(opened.diagnostics));
      const ctx = opened.context;
      const s = await swap(join(root, 'manifests', 'hello', 'data'), join(root, 'data-link'));
      const seen: Record<string, number> = {};
      try {
        for (let i = 0; i < RUNS; i++) {
          const v = await verifySkillPin(ctx, ctx.lock.skills[0] as SkillPin);
          const key = v.ok ? 'ok' : [...new Set(v.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort().join(',');
          seen[key] = (seen[key] ?? 0) + 1;
        }
      } finally {
        await s.stop();
      }
      // PIN_MODIFIED: outside's words.txt was hashed; BUNDLE_SPECIAL_FILE: its FIFO was listed.
      for (const key of Object.keys(seen)) assert.ok(key === 'ok' || key === 'BUNDLE_SYMLINK', JSON.stringify(seen));
    });
  }
});
