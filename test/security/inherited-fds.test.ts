// Threat: a descriptor whatever started skillctl left open (a wrapper's `exec 50</dir`, an agent
// host or a job runner that leaks descriptors). Passed on through bubblewrap, a directory
// descriptor of the host's mount namespace lets the skill climb with ".." to the host's root and
// read or write anything (as runc's CVE-2024-21626). skillctl is started with the sentinel's
// directory open at descriptor 40, without close-on-exec: a python skill, under bubblewrap or
// not, sees no descriptor naming it and reads nothing through one (src/core/run/inherited-fds.ts).
import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

const POLICY = 'fds.policy.yaml';
const EXEC_POLICY = 'exec.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };
/** Where the leaked descriptor sits in skillctl: past node's start-up sweep (0-15, on to the first gap). */
const AT = 40;

/**
 * Every descriptor above 2 the skill holds: where it points, and what reading secret.txt through
 * it (beside it, or from the host's root up the path) gave, or the error.
 */
const MAIN = [
  'import errno, json, os, sys',
  'sys.stdin.read()',
  'outside = sys.argv[1]',
  'r = {}',
  'for fd in sorted(int(x) for x in os.listdir("/proc/self/fd")):',
  '    if fd < 3: continue',
  '    try: r[fd] = {"to": os.readlink("/proc/self/fd/%d" % fd)}',
  '    except OSError: continue',
  '    for how, path in [("beside", "secret.txt"), ("root", "../" * 16 + outside.lstrip("/") + "/secret.txt")]:',
  '        try:',
  '            f = os.open(path, os.O_RDONLY, dir_fd=fd)',
  '            r[fd][how] = os.read(f, 100).decode()',
  '        except OSError as e: r[fd][how] = errno.errorcode[e.errno]',
  'print(json.dumps({"ok": json.dumps(r)}))',
  '',
].join('\n');

let leaked: number | undefined;

/** `skillctl run` with the sentinel's directory at descriptor AT, every other one above 2 closed. */
const run = (sandbox: 'bwrap' | 'none') => (sc: Scratch): Promise<Ran> =>
  runTarget('./bundles/fds', {}, { cwd: sc.work, policy: POLICY, sandbox, fds: Array.from({ length: AT - 2 }, (_, i) => (i === AT - 3 ? (leaked as number) : 'ignore')) });

/** No descriptor names the sentinel, and nothing was read through any. */
const sawNothing = (r: Ran, sc: Scratch): void => {
  const fds = JSON.parse((r.output as { ok: string }).ok) as Record<string, { to: string; beside?: string; root?: string }>;
  for (const [fd, f] of Object.entries(fds)) {
    assert.ok(!f.to.startsWith(sc.outside), `fd ${fd} names ${f.to}`);
    for (const got of [f.beside, f.root]) assert.ok(got === undefined || /^E[A-Z]+$/.test(got), `fd ${fd} (${f.to}) read ${got}`);
  }
  assert.equal(fds[String(AT)], undefined, `fd ${AT} reached the skill`);
};

/** The descriptors above 2 a program of shell.exec_safe holds, in skillctl run with the sentinel's directory at AT. */
const LIST_FDS = 'import os\nprint(" ".join(x for x in sorted(os.listdir("/proc/self/fd"), key=int) if int(x) > 2))';
const runBuiltin = (sc: Scratch): Promise<Ran> =>
  runTarget('shell.exec_safe', { argv: ['python3', '-c', LIST_FDS] }, { cwd: sc.work, policy: EXEC_POLICY, sandbox: 'bwrap', fds: Array.from({ length: AT - 2 }, (_, i) => (i === AT - 3 ? (leaked as number) : 'ignore')) });

const rows: Attack[] = [
  ...(['bwrap', 'none'] as const).map((sandbox) => ({
    what: `--sandbox ${sandbox}: a python skill looks for a directory descriptor skillctl inherited`,
    code: null,
    exit: 0,
    attempt: run(sandbox),
    check: sawNothing,
  })),
  {
    // Closed in the built-in's thread, node warned on stderr for each ("File descriptor 40 closed
    // but not opened in unmanaged mode"): a worker thread tracks the descriptors it opens.
    what: "--sandbox bwrap: shell.exec_safe's python3 looks for a descriptor skillctl inherited, and skillctl warns of nothing",
    code: null,
    exit: 0,
    attempt: runBuiltin,
    check: (r) => {
      const out = r.output as { exit_code: number; stdout: string; stderr: string };
      // The one the listing itself opens.
      assert.deepEqual([out.exit_code, out.stdout], [0, '3\n'], out.stderr);
      assert.equal(r.stderr, '');
    },
  },
];

describe('inherited descriptors: none reaches a skill', () => {
  const s = scratch('skillctl-attack-fds-');
  before(async () => {
    await writeBundle(join(s.work, 'bundles', 'fds'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: `python3 main.py ${s.outside}`, output_schema: OK })],
      files: { 'main.py': MAIN },
    });
    await writeFile(join(s.work, POLICY), 'version: 1\npermissions:\n  fs.read: [.]\n');
    await writeFile(join(s.work, EXEC_POLICY), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [python3]\n');
    leaked = openSync(s.outside, 'r');
  });
  after(() => {
    if (leaked !== undefined) closeSync(leaked);
  });

  attackRows(rows, s);
});
