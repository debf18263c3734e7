// Threat: a granted folder swapped for a link between the run's check and bubblewrap's mount.
// A process of another run that may write the folder above a grant (here test/helpers/swapper.py,
// thousands of swaps a second) trades the granted ws/data with ws/link, a link to a folder outside
// every grant. The run checks its grants (POLICY_PATH_CHANGED), but bubblewrap mounted them by
// name and followed the link: a python skill granted only ws/data read the outside folder's
// secret in about one run in four. Now each grant is opened (O_PATH|O_NOFOLLOW) and checked as it
// is handed to bubblewrap by its descriptor: every run reads inside, or is refused.
// A swap that landed while the run resolved its policy made the outside folder the grant itself:
// a skill opening the outside path by name read it in 17 runs of 40. Now the policy path's walk
// refuses a link in a folder this user can write (POLICY_PATH_LINK) instead of following it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { lstat, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runTarget, SECRET } from '../helpers/attack.js';
import { writeBundle } from '../helpers/bundles.js';
import { readerBundle } from '../helpers/fs-tool.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

/** Runs against the swapping process: the hole showed in about a quarter of them. */
const RUNS = 40;

describe('threat: a granted folder swapped for a link before bubblewrap mounts it', () => {
  const root = realpathSync(tempDir('skillctl-grant-swap-'));
  const proj = join(root, 'proj');
  const outside = join(root, 'outside');

  before(async () => {
    await mkdir(join(proj, '.git'), { recursive: true });
    await mkdir(join(proj, 'ws', 'data'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(proj, 'ws', 'data', 'x.txt'), 'inside\n');
    await writeFile(join(outside, 'x.txt'), `${SECRET}\n`);
    await symlink(outside, join(proj, 'ws', 'link'));
    await writeFile(join(proj, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [ws/data]\n');
    await writeBundle(join(proj, 'reader'), readerBundle(join(proj, 'ws', 'data'), join(proj, 'ws', 'data', 'x.txt')));
    // The same grant, but the skill opens the outside folder by its own name.
    await writeBundle(join(proj, 'direct'), readerBundle(join(proj, 'ws', 'data'), join(outside, 'x.txt')));
  });

  /** `runs` of `bundle` against the swapping process: the outcomes counted, and how many showed the secret. */
  async function raced(bundle: string, runs: number): Promise<{ seen: Record<string, number>; escapes: number }> {
    const swapper = spawn('python3', [join(ROOT, 'test', 'helpers', 'swapper.py'), join(proj, 'ws', 'data'), join(proj, 'ws', 'link')], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper.stdout.once('data', resolve));
    const seen: Record<string, number> = {};
    let escapes = 0;
    try {
      for (let i = 0; i < runs; i++) {
        const r = await runTarget(bundle, {}, { cwd: proj, sandbox: 'bwrap' });
        if (r.stdout.includes(SECRET) || r.stderr.includes(SECRET)) escapes++;
        const key = r.status === 'ok' ? `ok:${JSON.stringify(r.output)}` : `${r.status ?? 'none'}:${r.errors.join(',')}`;
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await new Promise<void>((done) => {
        swapper.once('exit', () => done());
        swapper.kill('SIGKILL');
      });
      if ((await lstat(join(proj, 'ws', 'data'))).isSymbolicLink()) {
        await rename(join(proj, 'ws', 'data'), join(proj, 'ws', 'tmp'));
        await rename(join(proj, 'ws', 'link'), join(proj, 'ws', 'data'));
        await rename(join(proj, 'ws', 'tmp'), join(proj, 'ws', 'link'));
      }
    }
    return { seen, escapes };
  }

  it(`${RUNS} runs of a python skill granted ws/data under bubblewrap: each reads inside or is refused, never the outside folder`, async () => {
    const { seen, escapes } = await raced('./reader', RUNS);
    assert.equal(escapes, 0, `runs that read outside the grant: ${JSON.stringify(seen)}`);
    // Every run read the granted file, was granted nothing (the manifest's own path resolved while
    // the link stood there: nothing under its name), or was refused: the link, when the walk of the
    // policy's path met it (POLICY_PATH_LINK), or the grant changed before bubblewrap had it
    // (POLICY_PATH_CHANGED). Or bubblewrap failed on the swap: RUN_SANDBOX_UNAVAILABLE where the same
    // sandbox, asked again, would not start either, else its complaint is not told from the skill's
    // own stderr (RUN_SKILL_FAILED; forged-sandbox-failure.test.ts).
    for (const key of Object.keys(seen)) assert.match(key, /^ok:\{"ok":"(inside\\n|FileNotFoundError)"\}$|POLICY_PATH_CHANGED|POLICY_PATH_LINK|RUN_SANDBOX_UNAVAILABLE|RUN_SKILL_FAILED/, JSON.stringify(seen));
    // Without the swapper the same run reads inside (the test would pass vacuously if the skill never ran).
    const calm = await runTarget('./reader', {}, { cwd: proj, sandbox: 'bwrap' });
    assert.deepEqual([calm.status, calm.output], ['ok', { ok: 'inside\n' }], calm.stdout);
  });

  it(`${RUNS} runs of a python skill granted ws/data that opens the outside folder by name: the swap never makes it the grant`, async () => {
    const { seen, escapes } = await raced('./direct', RUNS);
    assert.equal(escapes, 0, `runs that read outside the grant: ${JSON.stringify(seen)}`);
    for (const key of Object.keys(seen)) assert.match(key, /^ok:\{"ok":"(FileNotFoundError|PermissionError)"\}$|POLICY_PATH_CHANGED|POLICY_PATH_LINK|RUN_SANDBOX_UNAVAILABLE|RUN_SKILL_FAILED/, JSON.stringify(seen));
  });
});
