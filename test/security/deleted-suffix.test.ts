// Threat: filesystem, by a name. The kernel writes " (deleted)" after the path of an unlinked
// object (/proc/self/fd/N), and a file or directory may really be named `<grant> (deleted)`: were
// the suffix stripped on trust, the checked file layer would judge it as the grant. Beside the
// grants `data` (read) and `out` (read and write) lie the file `data (deleted)` holding the secret
// and the directory `out (deleted)`; built-ins, a provenact hostcall and WASI (through a symlink in
// the grant) each meet the denial, nothing is written beside the grant, and a grant that is itself
// named so still works.
import assert from 'node:assert/strict';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, SECRET, type Attack, type Ran, type Scratch, scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { compileWat } from '../helpers/wat.js';

const POLICY = '.skillctl/p.policy.yaml';
/** Grants `keep (deleted)`, a file really named so. */
const KEEP = '.skillctl/keep.policy.yaml';

const run = (skill: string, input: unknown, policy = POLICY) => (sc: Scratch): Promise<Ran> => runTarget(skill, input, { cwd: sc.work, policy });
/** Nothing was created in `out (deleted)`: it holds only what it held. */
const untouched = async (_r: Ran, sc: Scratch): Promise<void> => assert.deepEqual(await readdir(join(sc.work, 'out (deleted)')), ['victim.txt']);

const rows: Attack[] = [
  { what: 'fs.read_text of the file "data (deleted)" beside the grant data', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_text', { path: 'data (deleted)' }) },
  { what: 'fs.read_tree of the directory "out (deleted)" beside the grant out', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_tree', { root: 'out (deleted)' }) },
  {
    what: 'fs.write_patch with base "out (deleted)" creating a file: nothing created',
    code: 'POLICY_PATH_DENIED',
    exit: 3,
    check: untouched,
    attempt: run('fs.write_patch', { base: 'out (deleted)', unified_diff: '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+PLANTED\n' }),
  },
  { what: 'a wasm module\'s fs_read_file of "data (deleted)" (traps)', code: 'POLICY_PATH_DENIED', exit: 3, attempt: (sc) => run('./bundles/read', JSON.stringify(join(sc.work, 'data (deleted)')))(sc) },
  {
    what: 'a WASI module opening a symlink in the grant to "data (deleted)": NOTCAPABLE',
    code: null,
    exit: 0,
    attempt: run('./bundles/wasi', {}),
    check: (r) => assert.deepEqual(r.output, { errno: 76 }),
  },
  {
    what: 'fs.read_text of a granted file really named "keep (deleted)": read as itself',
    code: null,
    exit: 0,
    attempt: run('fs.read_text', { path: 'keep (deleted)' }, KEEP),
    check: (r) => assert.equal((r.output as { text: string }).text, 'kept\n'),
  },
];

describe('filesystem: a name ending in " (deleted)" is judged as itself, never as the grant it imitates', () => {
  const s = scratch('skillctl-attack-deleted-');
  before(async () => {
    const w = s.work;
    await mkdir(join(w, 'data'));
    await writeFile(join(w, 'data', 'a.txt'), 'public\n');
    await mkdir(join(w, 'out'));
    await writeFile(join(w, 'data (deleted)'), `${SECRET}\n`);
    await mkdir(join(w, 'out (deleted)'));
    await writeFile(join(w, 'out (deleted)', 'victim.txt'), 'original\n');
    await writeFile(join(w, 'keep (deleted)'), 'kept\n');
    await symlink(join(w, 'data (deleted)'), join(w, 'data', 'link.txt'));
    await mkdir(join(w, '.skillctl'));
    await writeFile(join(w, POLICY), 'version: 1\npermissions:\n  fs.read: [data, out]\n  fs.write: [out]\n');
    await writeFile(join(w, KEEP), "version: 1\npermissions:\n  fs.read: ['keep (deleted)']\n");
    const wasm = async (name: string, fixture: string, over: Record<string, unknown>): Promise<void> => {
      const dir = join(w, 'bundles', name);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
      await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {}, requested_permissions: { 'fs.read': [join(w, 'data')] }, ...over })] });
    };
    await wasm('read', 'read-file', { command: 'skill.wasm' });
    await wasm('wasi', 'wasi-open', { command: ['skill.wasm', '_start', 'r', 'link.txt'] });
  });

  attackRows(rows, s);
});
