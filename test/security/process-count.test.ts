// Threat: a fork bomb where no cgroup holds the run. A user who is not root gets no cgroup of
// skillctl's here (nor on most hosts): max_memory is then an rlimit per process, and nothing
// capped how many processes a run started, so a skill capped at 64 MiB held 64 MiB times as many
// processes as the user may have, and starved the user's own. In a sandbox with a user namespace
// of its own, RLIMIT_NPROC counts the sandbox's tasks alone (Linux 5.14 and later), and the run
// gets as many as its cgroup would (src/core/run/user-namespace.ts). This file runs skillctl as
// nobody (setpriv), or as the user running the tests when that is not root.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { countsPerUserNamespace } from '../../src/core/run/user-namespace.js';
import { ownForRun, skillctlAs, unprivileged } from '../helpers/as-nobody.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { tempDir } from '../helpers/tmp.js';

const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/**
 * Starts 400 sleeping processes from a subshell (whose failed fork ends it): how many started, and
 * what the subshell said, read without a fork (the sleeping ones still hold every task the run has).
 */
const BOMB_SH = `#!/bin/sh
cat > /dev/null
( i=0; while [ $i -lt 400 ]; do sleep 60 & i=$((i+1)); echo $i > /tmp/started; done ) 2> /tmp/said
read started < /tmp/started; read said < /tmp/said
printf '{"ok":"%s|%s"}\\n' "$started" "\${said##*: }"
`;

const how = unprivileged();
const skip = 'skip' in how ? how.skip : countsPerUserNamespace(release()) ? false : `kernel ${release()} counts RLIMIT_NPROC across the host, not per user namespace (5.14)`;

describe('processes without a cgroup: a fork bomb stops at 256 tasks', { skip }, () => {
  const root = realpathSync(tempDir('skillctl-attack-nproc-'));
  const work = join(root, 'work');
  const audit = join(root, 'audit.jsonl');

  before(async () => {
    mkdirSync(join(work, '.git'), { recursive: true });
    for (const d of ['home', 'tmp']) mkdirSync(join(root, d));
    await writeBundle(join(work, 'bomb'), {
      entrypoints: [entry({ runtime: 'shell', runtime_version: 'sh@1', command: './run.sh', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'run.sh': BOMB_SH },
      executable: ['run.sh'],
    });
    await writeFile(join(work, 'bomb.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 64MiB\n');
    ownForRun(root);
  });

  it('a shell skill starts 400 processes: its fork fails before 256, and the audit record says the count held for the run', async () => {
    assert.ok(!('skip' in how));
    const r = await skillctlAs<{ status: string; sandbox: string; output: { ok: string } | null }>(how.prefix, root, work, ['run', './bomb', '--input', '-', '--policy', 'bomb.policy.yaml', '--sandbox', 'bwrap', '--audit', audit]);
    assert.deepEqual([r.code, r.doc.status, r.doc.sandbox], [0, 'ok', 'bwrap'], r.stderr);
    const [started, said] = (r.doc.output?.ok ?? '').split('|');
    // The sandbox's own tasks (bubblewrap's init, the script, the subshell) count too.
    assert.ok(Number(started) > 200 && Number(started) < 256, `${started} started`);
    assert.equal(said, 'Cannot fork');
    const record = JSON.parse((await readFile(audit, 'utf8')).trim().split('\n').at(-1) as string) as { result: { caps: { memory: string; processes: string } } };
    // The premise: no cgroup held this run (memory per process), and the count held for the whole run.
    assert.deepEqual(record.result.caps, { memory: 'process', processes: 'run' });
  });
});
