// Threat: memory parked in the sandbox's tmpfs by a run no cgroup holds. A user who is not root
// gets no cgroup of skillctl's here (nor on most hosts), so max_memory is an address-space rlimit
// per process, and pages written to /tmp or /dev/shm count against no process: only the tmpfs
// sizes stop them (src/core/run/bwrap-args.ts), with ENOSPC. The rest of the suite runs as root,
// where the run's cgroup kills the skill first (RUN_MEMORY_LIMIT): this file runs skillctl as
// nobody (setpriv), or as the user running the tests when that is not root. A tmpfs the skill
// mounts itself, in a user namespace nested in the sandbox's, is sized by nothing: the sandbox may
// make none (bubblewrap's --disable-userns, src/core/run/sandbox.ts).
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { disablesUserns } from '../../src/core/run/grant-pins.js';
import { ownForRun, skillctlAs, unprivileged } from '../helpers/as-nobody.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { tempDir } from '../helpers/tmp.js';

const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/**
 * Writes 80 MiB (past the run's 64 MiB) to /tmp, then to /dev/shm (kept), then to /tmp again:
 * for each, the error dd ended with and the bytes the file then holds.
 */
const FILL_SH = `#!/bin/sh
cat > /dev/null
fill() { dd if=/dev/zero of="$1" bs=1048576 count=80 2>&1 >/dev/null | grep -v -e records -e copied | sed 's/.*: //'; stat -c %s "$1"; }
alone=$(fill /tmp/alone | tr '\\n' ' '); rm -f /tmp/alone
shm=$(fill /dev/shm/kept | tr '\\n' ' ')
tmp=$(fill /tmp/beside | tr '\\n' ' ')
printf '{"ok":"%s|%s|%s"}\\n' "$alone" "$shm" "$tmp"
`;

/**
 * Makes a user namespace of its own, nested in the sandbox's, and there a mount namespace with a
 * tmpfs of 1 GiB over /tmp, where it writes 160 MiB: the last line unshare, mount or stat said.
 */
const NESTED_SH = `#!/bin/sh
cat > /dev/null
out=$(unshare -rm sh -c 'mount -t tmpfs -o size=1g none /tmp && dd if=/dev/zero of=/tmp/parked bs=1048576 count=160 2>/dev/null; stat -c %s /tmp/parked' 2>&1 | tail -n 1 | tr -d '"\\\\')
printf '{"ok":"%s"}\\n' "$out"
`;

const how = unprivileged();

describe('tmpfs limits without a cgroup: a full /tmp or /dev/shm is ENOSPC', { skip: 'skip' in how ? how.skip : false }, () => {
  const root = realpathSync(tempDir('skillctl-attack-enospc-'));
  const work = join(root, 'work');
  const audit = join(root, 'audit.jsonl');

  before(async () => {
    mkdirSync(join(work, '.git'), { recursive: true });
    for (const d of ['home', 'tmp']) mkdirSync(join(root, d));
    await writeBundle(join(work, 'fill'), {
      entrypoints: [entry({ runtime: 'shell', runtime_version: 'sh@1', command: './run.sh', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'run.sh': FILL_SH },
      executable: ['run.sh'],
    });
    await writeBundle(join(work, 'nested'), {
      entrypoints: [entry({ runtime: 'shell', runtime_version: 'sh@1', command: './run.sh', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'run.sh': NESTED_SH },
      executable: ['run.sh'],
    });
    await writeFile(join(work, 'fill.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 64MiB\n');
    // The user the run is started as owns the project, its home and its temporary directory.
    ownForRun(root);
  });

  /** `skillctl run` of the fill skill, as the user `how` names: its JSON answer. */
  const runFill = (prefix: readonly string[]) =>
    skillctlAs<{ status: string; sandbox: string; output: { ok: string } | null }>(prefix, root, work, ['run', './fill', '--input', '-', '--policy', 'fill.policy.yaml', '--sandbox', 'bwrap', '--audit', audit]);

  it('a shell skill capped at 64 MiB writes 80 MiB to /tmp, then /dev/shm, then /tmp beside it: No space left on device at 48, 16 and 48 MiB, 64 MiB together', async () => {
    assert.ok(!('skip' in how));
    const r = await runFill(how.prefix);
    assert.deepEqual([r.code, r.doc.status, r.doc.sandbox], [0, 'ok', 'bwrap'], r.stderr);
    const full = 'No space left on device';
    assert.equal(r.doc.output?.ok, `${full} ${48 << 20} |${full} ${16 << 20} |${full} ${48 << 20} `);
    // The premise: no cgroup held this run, only the rlimits and the tmpfs sizes.
    const record = JSON.parse((await readFile(audit, 'utf8')).trim().split('\n').at(-1) as string) as { result: { caps: { memory: string } } };
    assert.equal(record.result.caps.memory, 'process');
  });

  it('a shell skill capped at 64 MiB makes a user namespace of its own and mounts a tmpfs of 1 GiB there: refused, nothing parked (bubblewrap 0.8 and later)', async (t) => {
    assert.ok(!('skip' in how));
    const r = await skillctlAs<{ status: string; sandbox: string; output: { ok: string } | null }>(how.prefix, root, work, ['run', './nested', '--input', '-', '--policy', 'fill.policy.yaml', '--sandbox', 'bwrap', '--audit', audit]);
    assert.deepEqual([r.code, r.doc.status, r.doc.sandbox], [0, 'ok', 'bwrap'], r.stderr);
    const said = r.doc.output?.ok ?? '';
    if (said === String(160 << 20) && !(await disablesUserns('bwrap'))) return t.skip('this bubblewrap has no --disable-userns (0.8)');
    // The nested namespace is not made: unshare fails (the sandbox may make none), and nothing was written.
    assert.match(said, /^unshare: /, said);
  });
});
