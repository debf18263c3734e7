// The checked file layer's real path of a handle (realOf): the kernel writes " (deleted)" after
// the path of an object unlinked since it was opened, and a real name may end the same way. A
// real name is kept whole (and so judged as itself, never as the grant it imitates); an unlinked
// object has no path, and the layer refuses it as the missing path it has become.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { link, mkdir, open, rmdir, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { realOf } from '../../../src/core/policy/checked-fs.js';
import { checkedFs, createPolicyGate, isFailure, type FsFailure } from '../../../src/core/policy/index.js';
import { tempDir } from '../../helpers/tmp.js';

/** O_PATH, as the layer opens: a handle that only names the object. */
const O_PATH = 0o10000000;

describe('checked file layer: the real path of a handle whose name ends in " (deleted)"', { skip: process.platform !== 'linux' && 'the layer reads /proc/self/fd on Linux only' }, () => {
  const tmp = tempDir('skillctl-checked-real-');
  let root: string;

  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'g'));
    await writeFile(join(root, 'g', 'in.txt'), 'granted\n');
    await writeFile(join(root, 'g (deleted)'), 'outside\n');
    await mkdir(join(root, 'd (deleted)'));
  });

  /** What the layer answered: `opened` (and closed again), the denial's code, or the failure's kind. */
  async function outcome(p: Promise<{ close(): Promise<void> } | FsFailure>): Promise<string> {
    const r = await p;
    if (!isFailure(r)) return (await r.close(), 'opened');
    return r.kind === 'denied' ? r.decision.code : r.kind;
  }

  async function held<T>(path: string, use: (fh: FileHandle) => Promise<T>): Promise<T> {
    const fh = await open(path, O_PATH);
    try {
      return await use(fh);
    } finally {
      await fh.close();
    }
  }

  it('a file or directory really named so: the whole name, suffix included', async () => {
    assert.equal(await held(join(root, 'g (deleted)'), (fh) => realOf(fh, '')), join(root, 'g (deleted)'));
    assert.equal(await held(join(root, 'd (deleted)'), (fh) => realOf(fh, '')), join(root, 'd (deleted)'));
  });

  it('a file or directory unlinked after the open: no path (undefined)', async () => {
    await writeFile(join(root, 'gone.txt'), 'x');
    assert.equal(await held(join(root, 'gone.txt'), async (fh) => (await unlink(join(root, 'gone.txt')), realOf(fh, ''))), undefined);
    await mkdir(join(root, 'gone-dir'));
    assert.equal(await held(join(root, 'gone-dir'), async (fh) => (await rmdir(join(root, 'gone-dir')), realOf(fh, ''))), undefined);
  });

  it('the name it was opened by unlinked while another link remains: no path either', async () => {
    await writeFile(join(root, 'h.txt'), 'x');
    await link(join(root, 'h.txt'), join(root, 'h2.txt'));
    assert.equal(await held(join(root, 'h.txt'), async (fh) => (await unlink(join(root, 'h.txt')), realOf(fh, ''))), undefined);
  });

  it('unlinked, and another object planted at "<name> (deleted)": that name is not this object, so no path', async () => {
    await writeFile(join(root, 'p.txt'), 'x');
    const r = await held(join(root, 'p.txt'), async (fh) => {
      await unlink(join(root, 'p.txt'));
      await writeFile(join(root, 'p.txt (deleted)'), 'planted');
      return realOf(fh, '');
    });
    assert.equal(r, undefined);
  });

  it('through the layer: "g (deleted)" beside the grant g is judged as itself and denied, file and directory alike', async () => {
    await mkdir(join(root, 'w (deleted)'));
    const gate = createPolicyGate({ fsRead: [join(root, 'g'), join(root, 'w')], fsWrite: [join(root, 'w')], netHttp: [], exec: [], env: [] }, { cwd: root, pathEnv: '' });
    const files = checkedFs(gate, root);
    assert.equal(await outcome(files.openFile(join(root, 'g (deleted)'))), 'POLICY_PATH_DENIED');
    assert.equal(await outcome(files.openDir(join(root, 'w (deleted)'), 'fs.read')), 'POLICY_PATH_DENIED');
    assert.equal(await outcome(files.openDir(join(root, 'w (deleted)'), 'fs.write')), 'POLICY_PATH_DENIED');
    assert.equal(await outcome(files.openFile(join(root, 'g', 'in.txt'))), 'opened');
  });
});
