// Threat: memory parked in the sandbox's tmpfs by a run no cgroup holds. A user who is not root
// gets no cgroup of skillctl's here (nor on most hosts), so max_memory is an address-space rlimit
// per process, and pages written to /tmp or /dev/shm count against no process: only the tmpfs
// sizes stop them (src/core/run/bwrap-args.ts), with ENOSPC. The rest of the suite runs as root,
// where the run's cgroup kills the skill first (RUN_MEMORY_LIMIT): this file runs skillctl as
// nobody (setpriv), or as the user running the tests when that is not root.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { HANG_GUARD_MS } from '../helpers/hostile.js';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const NOBODY = 65534;
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

/** The argv prefix that runs a program as a user who is not root, or why none can here. */
function unprivileged(): { readonly prefix: readonly string[] } | { readonly skip: string } {
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'] : [];
  if (asRoot && spawnSync('setpriv', ['--version']).status !== 0) return { skip: 'root without setpriv: no way to run skillctl as another user' };
  // bubblewrap needs a user namespace for a user who is not root (or to be setuid).
  const probe = spawnSync(prefix[0] ?? 'bwrap', [...prefix.slice(1), ...(asRoot ? ['bwrap'] : []), '--unshare-all', '--ro-bind', '/', '/', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return { skip: `bubblewrap cannot start a sandbox for a user who is not root here: ${(probe.stderr || String(probe.error)).trim()}` };
  return { prefix };
}

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
    await writeFile(join(work, 'fill.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 64MiB\n');
    // The user the run is started as owns the project, its home and its temporary directory.
    if (process.getuid?.() === 0) {
      const own = (p: string): void => {
        chownSync(p, NOBODY, NOBODY);
        if (statSync(p).isDirectory()) for (const e of readdirSync(p)) own(join(p, e));
      };
      own(root);
    }
  });

  /** `skillctl run` of the fill skill, as the user `how` names: its JSON answer. */
  function runFill(prefix: readonly string[]): Promise<{ readonly code: number; readonly doc: { status: string; sandbox: string; output: { ok: string } | null }; readonly stderr: string }> {
    const argv = [...prefix, process.execPath, BIN, 'run', './fill', '--input', '-', '--policy', 'fill.policy.yaml', '--sandbox', 'bwrap', '--audit', audit, '--json'];
    // The home, temporary and XDG directories of the user running the tests are not nobody's.
    const unset = new Set(['XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'FORCE_COLOR']);
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !unset.has(name))), HOME: join(root, 'home'), TMPDIR: join(root, 'tmp'), NO_COLOR: '1' };
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0] as string, argv.slice(1), { cwd: work, env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        const stdout = Buffer.concat(out).toString('utf8');
        const stderr = Buffer.concat(err).toString('utf8');
        try {
          resolve({ code: code ?? -1, doc: JSON.parse(stdout) as never, stderr });
        } catch {
          reject(new Error(`stdout is not JSON (exit ${code ?? 'killed'}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`));
        }
      });
      child.stdin.end('{}');
    });
  }

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
});
