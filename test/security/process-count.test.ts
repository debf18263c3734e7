// Threat: limits that do not hold where no cgroup holds the run. A user who is not root gets no
// cgroup of skillctl's here (nor on most hosts): max_memory is then an rlimit per process, and
// nothing capped how many processes a run started, so a fork bomb capped at 64 MiB held 64 MiB
// times as many processes as the user may have, and starved the user's own; and the programs a
// built-in starts (shell.exec_safe's command, git, rg) had no memory limit at all. In a sandbox
// with a user namespace of its own, RLIMIT_NPROC counts the sandbox's tasks alone (Linux 5.14
// and later), and the run gets as many as its cgroup would (src/core/run/user-namespace.ts); a
// built-in's programs get the rlimits a process runtime gets (src/core/run/program-limits.ts).
// This file runs skillctl as nobody (setpriv), or as the user running the tests when that is not root.
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
 * Starts 400 sleeping processes from a subshell (whose failed fork ends it), then reads how many
 * started and what the subshell said without a fork (the sleeping ones still hold every task the
 * run has): `$started` and `$said`.
 */
const BOMB = '( i=0; while [ $i -lt 400 ]; do sleep 60 & i=$((i+1)); echo $i > /tmp/started; done ) 2> /tmp/said; read started < /tmp/started; read said < /tmp/said';
const BOMB_SH = `#!/bin/sh\ncat > /dev/null\n${BOMB}\nprintf '{"ok":"%s|%s"}\\n' "$started" "\${said##*: }"\n`;
/** The same from python: forks until a fork fails, and says how many started and why it stopped. */
const FORKS_PY = [
  'import errno, os, signal, time',
  'pids, why = [], ""',
  'for _ in range(400):',
  '    try: pid = os.fork()',
  '    except OSError as e:',
  '        why = errno.errorcode[e.errno]; break',
  '    if pid == 0: time.sleep(60); os._exit(0)',
  '    pids.append(pid)',
  'for p in pids: os.kill(p, signal.SIGKILL); os.waitpid(p, 0)',
  'print("%d|%s" % (len(pids), why))',
].join('\n');

const how = unprivileged();
const skip = 'skip' in how ? how.skip : countsPerUserNamespace(release()) ? false : `kernel ${release()} counts RLIMIT_NPROC across the host, not per user namespace (5.14)`;

describe('limits without a cgroup: a fork bomb stops at 256 tasks, a built-in\'s program at max_memory', { skip }, () => {
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
    await writeFile(join(work, 'exec.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [python3]\nlimits:\n  max_memory: 64MiB\n');
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

  it("shell.exec_safe's python3, in a run capped at 64 MiB, allocates 300 MiB: MemoryError, or maps 300 MiB of shared memory: ENOMEM; and forks 400 times: EAGAIN before 256", async () => {
    assert.ok(!('skip' in how));
    type Exec = { status: string; output: { exit_code: number; stdout: string; stderr: string } | null };
    const exec = (argv: readonly string[]) => skillctlAs<Exec>(how.prefix, root, work, ['run', 'shell.exec_safe', '--input', '-', '--policy', 'exec.policy.yaml', '--sandbox', 'bwrap', '--no-audit'], { argv });
    const big = await exec(['python3', '-c', 'b = bytearray(300 << 20); print(len(b))']);
    assert.equal(big.doc.status, 'ok', JSON.stringify(big.doc));
    assert.equal(big.doc.output?.exit_code, 1, big.doc.output?.stdout);
    assert.match(big.doc.output?.stderr ?? '', /MemoryError/);
    // Shared anonymous memory, which a data-segment limit would not count.
    const shared = await exec(['python3', '-c', 'import mmap\ntry: mmap.mmap(-1, 300 << 20); print("mapped")\nexcept OSError as e: print(e.strerror)']);
    assert.equal(shared.doc.output?.stdout, 'Cannot allocate memory\n', JSON.stringify(shared.doc));
    const bomb = await exec(['python3', '-c', FORKS_PY]);
    assert.equal(bomb.doc.status, 'ok', JSON.stringify(bomb.doc));
    const [started, said] = (bomb.doc.output?.stdout ?? '').trim().split('|');
    assert.ok(Number(started) > 200 && Number(started) < 256, `${started} started`);
    assert.equal(said, 'EAGAIN');
  });
});
