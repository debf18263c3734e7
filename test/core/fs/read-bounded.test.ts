// The one reader of named files: regular files only, refused by kind before they are opened,
// and never more than the bound read (a FIFO would block, /dev/zero never ends).
import assert from 'node:assert/strict';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readBounded, refusalCode, refusalDiagnostic, type BoundedRead } from '../../../src/core/fs/index.js';
import { fifo, socketAt } from '../../helpers/hostile.js';
import { removeDir, tempDir } from '../../helpers/project.js';

const reason = (r: BoundedRead): string => (r.ok ? 'ok' : r.reason === 'not-regular' ? `not-regular:${r.kind}` : r.reason);

describe('readBounded', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
    await writeFile(join(dir, 'ten'), '0123456789');
    await mkdir(join(dir, 'sub'));
    await symlink(join(dir, 'ten'), join(dir, 'link'));
    fifo(join(dir, 'fifo'));
  });
  after(async () => removeDir(dir));

  it('reads a regular file up to its bound, and refuses one byte more without reading it', async () => {
    const r = await readBounded(join(dir, 'ten'), { maxBytes: 10 });
    assert.ok(r.ok && r.bytes.toString() === '0123456789');
    assert.deepEqual(await readBounded(join(dir, 'ten'), { maxBytes: 9 }), { ok: false, reason: 'too-large', size: 10, maxBytes: 9 });
    await writeFile(join(dir, 'sparse'), '');
    await truncate(join(dir, 'sparse'), 8 * 1024 ** 3);
    assert.equal(reason(await readBounded(join(dir, 'sparse'), { maxBytes: 1024 })), 'too-large');
  });

  it('refuses FIFOs, devices, sockets and directories by kind, before opening them', async () => {
    const server = await socketAt(join(dir, 'sock'));
    try {
      assert.equal(reason(await readBounded(join(dir, 'fifo'), { maxBytes: 10 })), 'not-regular:FIFO');
      assert.equal(reason(await readBounded('/dev/zero', { maxBytes: 10 })), 'not-regular:character device');
      assert.equal(reason(await readBounded(join(dir, 'sock'), { maxBytes: 10 })), 'not-regular:socket');
      assert.equal(reason(await readBounded(join(dir, 'sub'), { maxBytes: 10 })), 'not-regular:directory');
    } finally {
      server.close();
    }
  });

  it('follows a link by default; refuses it where links are not wanted', async () => {
    assert.equal(reason(await readBounded(join(dir, 'link'), { maxBytes: 10 })), 'ok');
    assert.equal(reason(await readBounded(join(dir, 'link'), { maxBytes: 10, followLinks: false })), 'not-regular:symbolic link');
  });

  it('reads a file whose size fstat gives as 0 (/proc) to its end, within the bound', async () => {
    const r = await readBounded('/proc/self/status', { maxBytes: 1024 * 1024 });
    assert.ok(r.ok && r.bytes.toString().includes('Pid:'));
    assert.equal(reason(await readBounded('/proc/self/status', { maxBytes: 8 })), 'too-large');
  });

  it('names each refusal with its code and the file', async () => {
    const missing = await readBounded(join(dir, 'none'), { maxBytes: 10 });
    assert.ok(!missing.ok);
    assert.equal(refusalCode(missing), 'INPUT_NOT_FOUND');
    const f = await readBounded(join(dir, 'fifo'), { maxBytes: 10 });
    assert.ok(!f.ok);
    assert.deepEqual([refusalDiagnostic(f, 'fifo').code, refusalDiagnostic(f, 'fifo').file], ['INPUT_NOT_REGULAR_FILE', 'fifo']);
    const big = await readBounded(join(dir, 'ten'), { maxBytes: 1 });
    assert.ok(!big.ok);
    assert.equal(refusalDiagnostic(big, 'ten', 'MANIFEST_TOO_LARGE').code, 'MANIFEST_TOO_LARGE');
  });
});
