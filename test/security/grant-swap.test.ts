// Threat: a granted folder swapped for a link between the run's check and bubblewrap's mount.
// A process of another run that may write the folder above a grant (here test/helpers/swapper.py,
// thousands of swaps a second) trades the granted ws/data with ws/link, a link to a folder outside
// every grant. The run checks its grants (POLICY_PATH_CHANGED), but bubblewrap mounted them by
// name and followed the link: a python skill granted only ws/data read the outside folder's
// secret in about one run in four. Now each grant is opened (O_PATH|O_NOFOLLOW) and checked as it
// is handed to bubblewrap by its descriptor: every run reads inside, or is refused.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { lstat, mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runTarget, SECRET } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';
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
    await writeBundle(join(proj, 'reader'), {
      entrypoints: [
        entry({
          runtime: 'python',
          runtime_version: PYTHON_VERSION,
          command: 'python3 main.py',
          output_schema: { type: 'object', properties: { ok: {} } },
          requested_permissions: { 'fs.read': [join(proj, 'ws', 'data')] },
        }),
      ],
      files: { 'main.py': `import json\ntry:\n    text = open(${JSON.stringify(join(proj, 'ws', 'data', 'x.txt'))}).read()\nexcept OSError as e:\n    text = type(e).__name__\nprint(json.dumps({"ok": text}))\n` },
    });
  });

  it(`${RUNS} runs of a python skill granted ws/data under bubblewrap: each reads inside or is refused, never the outside folder`, async () => {
    const swapper = spawn('python3', [join(ROOT, 'test', 'helpers', 'swapper.py'), join(proj, 'ws', 'data'), join(proj, 'ws', 'link')], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper.stdout.once('data', resolve));
    const seen: Record<string, number> = {};
    let escapes = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const r = await runTarget('./reader', {}, { cwd: proj, sandbox: 'bwrap' });
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
    assert.equal(escapes, 0, `runs that read outside the grant: ${JSON.stringify(seen)}`);
    // Every run read the granted file, found nothing under its name (the grant itself resolved
    // while the link stood there: see docs/security.md, What remains), or was refused.
    for (const key of Object.keys(seen)) assert.match(key, /^ok:\{"ok":"(inside\\n|FileNotFoundError)"\}$|POLICY_PATH_CHANGED|RUN_SANDBOX_UNAVAILABLE/, JSON.stringify(seen));
    // Without the swapper the same run reads inside (the test would pass vacuously if the skill never ran).
    const calm = await runTarget('./reader', {}, { cwd: proj, sandbox: 'bwrap' });
    assert.deepEqual([calm.status, calm.output], ['ok', { ok: 'inside\n' }], calm.stdout);
  });
});
