// Threat: memory parked where no process is charged. Without a cgroup (a user who is not root),
// max_memory is an address-space rlimit per process, and pages written to the sandbox's private
// /tmp, /dev or root (a tmpfs each, unbounded: half the host's memory) count against no process:
// a skill capped at 64 MiB parked 1 GiB. /tmp and /dev/shm share the run's memory limit, /dev and
// the root are read-only (src/core/run/bwrap-args.ts); /dev/null, small files in /tmp and POSIX
// shared memory (python's multiprocessing) still work. Memory no file shows (a memfd_create file,
// System V shared memory and message queues) is refused by the sandbox's seccomp filter
// (src/core/run/seccomp.ts): the calls fail with ENOSYS.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

const POLICY = 'tmpfs.policy.yaml';
const EXEC_POLICY = 'exec.policy.yaml';
/** What a program a built-in starts finds: the size of /tmp and of /dev/shm. */
const SIZES_PY = 'import os\nfor p in ["/tmp", "/dev/shm"]:\n    s = os.statvfs(p); print(p, s.f_blocks * s.f_frsize)';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/** For each file: the MiB written before the first error, and that error (or "ok"). */
const MAIN = [
  'import errno, json, sys',
  'sys.stdin.read()',
  'blk = b"x" * (1 << 20)',
  'r = {}',
  'for path, mib in [("/dev/fill", 256), ("/dev/null", 256), ("/tmp/small", 1), ("/dev/shm/small", 1)]:',
  '    n = 0',
  '    try:',
  '        with open(path, "wb") as f:',
  '            for i in range(mib):',
  '                f.write(blk); f.flush(); n += 1',
  '        r[path] = "ok"',
  '    except OSError as e: r[path] = errno.errorcode[e.errno]',
  '    if path.endswith("fill"):',
  '        try: __import__("os").unlink(path)',
  '        except OSError: pass',
  'print(json.dumps({"ok": json.dumps(r)}))',
  '',
].join('\n');

/** POSIX semaphores and shared memory in /dev/shm; the sizes of /tmp and /dev/shm; a file at the root. */
const SHM = [
  'import errno, json, os, sys',
  'from multiprocessing import Lock, Pool, shared_memory',
  'def square(x): return x * x',
  'if __name__ == "__main__":',
  '    sys.stdin.read()',
  '    r = {}',
  '    with Lock(): pass',
  '    with Pool(2) as pool: r["pool"] = sum(pool.map(square, range(10)))',
  '    m = shared_memory.SharedMemory(create=True, size=4 << 20)',
  '    m.buf[(4 << 20) - 1] = 7',
  '    r["shared"] = m.buf[(4 << 20) - 1]',
  '    m.close(); m.unlink()',
  '    for p in ["/tmp", "/dev/shm"]:',
  '        st = os.statvfs(p); r[p] = st.f_blocks * st.f_frsize',
  '    try:',
  '        with open("/parked", "wb") as f: f.write(b"x")',
  '        r["/parked"] = "ok"',
  '    except OSError as e: r["/parked"] = errno.errorcode[e.errno]',
  '    print(json.dumps({"ok": json.dumps(r)}))',
  '',
].join('\n');

/** The calls that make memory no file shows: for each, "ok" or the error it failed with. */
const UNFILED = [
  'import ctypes, errno, json, os, sys',
  'sys.stdin.read()',
  'r = {}',
  'try:',
  '    fd = os.memfd_create("parked"); os.write(fd, b"x" * (1 << 20)); r["memfd_create"] = "ok"',
  'except OSError as e: r["memfd_create"] = errno.errorcode[e.errno]',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'for name, args in [("shmget", (0, 1 << 20, 0o1600)), ("msgget", (0, 0o1600))]:',
  '    n = getattr(libc, name)(*args)',
  '    r[name] = "ok" if n >= 0 else errno.errorcode[ctypes.get_errno()]',
  'print(json.dumps({"ok": json.dumps(r)}))',
  '',
].join('\n');

const rows: Attack[] = [
  {
    // Without a cgroup, a python process capped at 64 MiB held 512 MiB in a memfd or in System V segments.
    what: '--sandbox bwrap: a python skill capped at 64 MiB makes a memfd_create file, a System V shared memory segment and a message queue',
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('./bundles/unfiled', {}, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap' }),
    check: (r) => {
      assert.equal(r.status, 'ok');
      assert.deepEqual(JSON.parse((r.output as { ok: string }).ok), { memfd_create: 'ENOSYS', shmget: 'ENOSYS', msgget: 'ENOSYS' });
    },
  },
  {
    // A built-in's programs get the same filter.
    what: "--sandbox bwrap: shell.exec_safe's python3 makes a memfd_create file",
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('shell.exec_safe', { argv: ['python3', '-c', 'import os\ntry: os.memfd_create("parked"); print("made")\nexcept OSError as e: print(e.strerror)'] }, { cwd: sc.work, policy: EXEC_POLICY, sandbox: 'bwrap' }),
    check: (r) => {
      const out = r.output as { exit_code: number; stdout: string; stderr: string };
      assert.deepEqual([out.exit_code, out.stdout], [0, 'Function not implemented\n'], out.stderr);
    },
  },
  {
    // Filling /tmp or /dev/shm past the limit is ENOSPC without a cgroup, and the cgroup's kill
    // (RUN_MEMORY_LIMIT) with one, as here when the tests run as root: bwrapArgs' tests hold the sizes.
    what: '--sandbox bwrap: a python skill capped at 64 MiB writes 256 MiB into /dev, and to /dev/null and small files',
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('./bundles/fill', {}, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap' }),
    check: (r) => {
      assert.equal(r.status, 'ok');
      assert.deepEqual(JSON.parse((r.output as { ok: string }).ok), { '/dev/fill': 'EROFS', '/dev/null': 'ok', '/tmp/small': 'ok', '/dev/shm/small': 'ok' });
    },
  },
  {
    // Each sized to max_memory, the two held twice the run's memory; and the root held any amount.
    what: '--sandbox bwrap: a python skill capped at 64 MiB uses multiprocessing and shared memory, finds /tmp and /dev/shm 64 MiB together, and the root read-only',
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('./bundles/shm', {}, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap' }),
    check: (r) => {
      assert.equal(r.status, 'ok');
      assert.deepEqual(JSON.parse((r.output as { ok: string }).ok), { pool: 285, shared: 7, '/tmp': 48 << 20, '/dev/shm': 16 << 20, '/parked': 'EROFS' });
    },
  },
  {
    // A built-in's programs (shell.exec_safe, git, rg) had a /tmp and /dev/shm of half the host's memory each.
    what: "--sandbox bwrap: shell.exec_safe's python3, in a run capped at 64 MiB, finds /tmp and /dev/shm 64 MiB together",
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('shell.exec_safe', { argv: ['python3', '-c', SIZES_PY] }, { cwd: sc.work, policy: EXEC_POLICY, sandbox: 'bwrap' }),
    check: (r) => {
      const out = r.output as { exit_code: number; stdout: string; stderr: string };
      assert.deepEqual([out.exit_code, out.stdout], [0, `/tmp ${48 << 20}\n/dev/shm ${16 << 20}\n`], out.stderr);
    },
  },
];

describe('tmpfs limits: nothing parked past max_memory in the sandbox', () => {
  const s = scratch('skillctl-attack-tmpfs-');
  before(async () => {
    await writeBundle(join(s.work, 'bundles', 'fill'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'main.py': MAIN },
    });
    await writeBundle(join(s.work, 'bundles', 'unfiled'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'main.py': UNFILED },
    });
    await writeBundle(join(s.work, 'bundles', 'shm'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK, runtime_limits: { max_memory: '64MiB' } })],
      files: { 'main.py': SHM },
    });
    await writeFile(join(s.work, POLICY), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 64MiB\n');
    await writeFile(join(s.work, EXEC_POLICY), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [python3]\nlimits:\n  max_memory: 64MiB\n');
  });

  attackRows(rows, s);
});
