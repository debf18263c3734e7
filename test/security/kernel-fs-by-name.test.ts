// Threat: a process skill granted `/` reads the host's /sys, a kernel file system only a grant naming it may show.
// A grant of `/` is shown to a process skill entry by entry (the sandbox keeps its own /proc, /dev
// and /tmp); the host's /sys was one of them, read-only: a python skill granted `fs.read: [/]`
// listed every cgroup's settings and the firmware's tables, and read what root may read there. Since
// the stop of 2026-12-01 /sys is left out of `/` as /proc and /dev are, and shown only by a grant
// that names it or a path inside it (src/core/run/bwrap-args.ts).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

/** For each path: the number of entries it lists, or the error listing it raised. */
const LIST_PY = [
  'import json, os, sys',
  'sys.stdin.read()',
  'r = {}',
  'for p in ["/sys", "/sys/fs/cgroup", "/sys/kernel", "/usr"]:',
  '    try: r[p] = "listed" if len(os.listdir(p)) > 0 else "empty"',
  '    except OSError as e: r[p] = type(e).__name__',
  'print(json.dumps({"ok": json.dumps(r, sort_keys=True)}))',
  '',
].join('\n');

describe('threat: the host\'s /sys through a grant of `/` to a process skill', () => {
  const sc = scratch('skillctl-kernel-fs-');
  const tool = join(sc.work, 'lister');

  before(async () => {
    await writeBundle(tool, {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', requested_permissions: { 'fs.read': ['/'] }, output_schema: { type: 'object', properties: { ok: { type: 'string' } } } })],
      files: { 'main.py': LIST_PY },
    });
    await writeFile(join(sc.work, 'root.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n');
    await writeFile(join(sc.work, 'named.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/, /sys/kernel]\n');
  });

  const listed = (ok: unknown): Record<string, string> => JSON.parse((ok as { ok: string }).ok) as Record<string, string>;
  const rows: Attack[] = [
    {
      what: 'a python skill granted `fs.read: [/]` lists /sys and /sys/fs/cgroup: not there, /usr still is',
      code: null,
      exit: 0,
      attempt: (s) => runTarget(tool, {}, { cwd: s.work, policy: 'root.policy.yaml', sandbox: 'bwrap' }),
      check: (r) => assert.deepEqual(listed(r.output), { '/sys': 'FileNotFoundError', '/sys/fs/cgroup': 'FileNotFoundError', '/sys/kernel': 'FileNotFoundError', '/usr': 'listed' }),
    },
    {
      what: 'the same under `fs.read: [/, /sys/kernel]`: the path the policy names is shown, nothing else of /sys',
      code: null,
      exit: 0,
      attempt: (s) => runTarget(tool, {}, { cwd: s.work, policy: 'named.policy.yaml', sandbox: 'bwrap' }),
      check: (r) => {
        const got = listed(r.output);
        assert.equal(got['/sys/kernel'], 'listed', JSON.stringify(got));
        assert.equal(got['/sys/fs/cgroup'], 'FileNotFoundError', JSON.stringify(got));
      },
    },
  ];
  attackRows(rows, sc);
});
