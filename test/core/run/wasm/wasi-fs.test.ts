// The host side of WASI's file calls (src/core/run/wasm/wasi-fs.ts), called directly with the
// requests the module's thread forwards: directories, seeking, appending, renaming, the
// preopens' rights, and a file left as it was when the module never reached a commit.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { checkedFs, createPolicyGate, type RecordingGate } from '../../../../src/core/policy/index.js';
import { ERRNO, FILE_WRITE_RIGHTS, OFLAGS, RIGHTS, WASI_MAX_FILE_BYTES, WHENCE } from '../../../../src/core/run/wasm/wasi-abi.js';
import { wasiFs, type WasiAnswer, type WasiFs, type WasiRequest } from '../../../../src/core/run/wasm/wasi-fs.js';
import { wasiPreopens } from '../../../../src/core/run/wasm/wasi-grant.js';
import { tempDir } from '../../../helpers/tmp.js';

type Call = WasiRequest extends infer R ? (R extends { op: 'wasi' } ? Omit<R, 'op'> : never) : never;

describe('WASI file calls over the gate', () => {
  const tmp = tempDir('skillctl-wasi-fs-');
  let root: string;
  let rw: string;
  let ro: string;

  before(async () => {
    root = realpathSync(tmp);
    rw = join(root, 'rw');
    ro = join(root, 'ro');
    await mkdir(join(rw, 'dir'), { recursive: true });
    await mkdir(ro, { recursive: true });
    await writeFile(join(rw, 'a.txt'), 'hello');
    await writeFile(join(rw, 'dir', 'b.txt'), 'b');
    await writeFile(join(ro, 'r.txt'), 'read only');
    await mkdir(join(root, 'outside'));
    await writeFile(join(root, 'outside', 's.txt'), 'secret');
  });

  function host(): { fs: WasiFs; gate: RecordingGate; call: (c: Call) => Promise<WasiAnswer> } {
    const granted = { fsRead: [ro, rw], fsWrite: [rw], netHttp: [], exec: [], env: [] };
    const gate = createPolicyGate(granted, { cwd: root, pathEnv: '' });
    const fs = wasiFs(gate, checkedFs(gate, root), wasiPreopens(granted));
    return { fs, gate, call: (c) => fs.serve({ op: 'wasi', ...c } as WasiRequest) };
  }
  // Preopens are sorted by path: 3 is ro, 4 is rw.
  const RO = 3;
  const RW = 4;
  const open = (fd: number, path: string, oflags = 0, rightsBase = RIGHTS.FD_READ, fdflags = 0, follow = true): Call => ({ call: 'path_open', fd, follow, path, oflags, rightsBase, rightsInheriting: 0n, fdflags });

  it('names the preopens by their real paths; other descriptors are not preopens', async () => {
    const { call } = host();
    assert.equal(Buffer.from((await call({ call: 'fd_prestat_dir_name', fd: RO })).data ?? []).toString(), ro);
    assert.equal(Buffer.from((await call({ call: 'fd_prestat_dir_name', fd: RW })).data ?? []).toString(), rw);
    assert.equal((await call({ call: 'fd_prestat_get', fd: 5 })).errno, ERRNO.BADF);
    // The read-only preopen's rights leave out writing; the read-write one's include it.
    const roStat = Buffer.from((await call({ call: 'fd_fdstat_get', fd: RO })).data ?? []);
    assert.equal(roStat.readBigUInt64LE(16) & FILE_WRITE_RIGHTS, 0n);
    const rwStat = Buffer.from((await call({ call: 'fd_fdstat_get', fd: RW })).data ?? []);
    assert.equal(rwStat.readBigUInt64LE(16) & FILE_WRITE_RIGHTS, FILE_WRITE_RIGHTS);
  });

  it('reads, seeks and preads within a file; a read-only descriptor does not write', async () => {
    const { call } = host();
    const fd = Number((await call(open(RW, 'a.txt'))).value);
    assert.equal(Buffer.from((await call({ call: 'fd_read', fd, max: 3 })).data ?? []).toString(), 'hel');
    assert.equal((await call({ call: 'fd_seek', fd, offset: -1n, whence: WHENCE.END })).value, 4n);
    assert.equal(Buffer.from((await call({ call: 'fd_read', fd, max: 10 })).data ?? []).toString(), 'o');
    assert.equal(Buffer.from((await call({ call: 'fd_read', fd, max: 2, offset: 1n })).data ?? []).toString(), 'el');
    assert.equal((await call({ call: 'fd_read', fd, max: 2, offset: -1n })).errno, ERRNO.INVAL);
    assert.equal((await call({ call: 'fd_seek', fd, offset: -10n, whence: WHENCE.CUR })).errno, ERRNO.INVAL);
    assert.equal((await call({ call: 'fd_write', fd, data: Buffer.from('x') })).errno, ERRNO.NOTCAPABLE);
    const st = Buffer.from((await call({ call: 'fd_filestat_get', fd })).data ?? []);
    assert.equal(st.readUInt8(16), 4);
    assert.equal(st.readBigUInt64LE(32), 5n);
    assert.equal((await call({ call: 'fd_close', fd })).errno, ERRNO.SUCCESS);
    assert.equal((await call({ call: 'fd_close', fd })).errno, ERRNO.BADF);
  });

  it('appends, and commits on close; an uncommitted change is lost when the module never ends cleanly', async () => {
    const { call, fs } = host();
    const fd = Number((await call(open(RW, 'a.txt', 0, RIGHTS.FD_READ | RIGHTS.FD_WRITE, 1))).value);
    assert.equal((await call({ call: 'fd_write', fd, data: Buffer.from(' world') })).value, 6n);
    assert.equal(await readFile(join(rw, 'a.txt'), 'utf8'), 'hello', 'nothing is written before a commit');
    assert.equal((await call({ call: 'fd_close', fd })).errno, ERRNO.SUCCESS);
    assert.equal(await readFile(join(rw, 'a.txt'), 'utf8'), 'hello world');
    // Changed, never synced or closed, and the module trapped: commitAll is not called.
    const other = Number((await call(open(RW, 'a.txt', OFLAGS.TRUNC, RIGHTS.FD_WRITE))).value);
    assert.equal(await readFile(join(rw, 'a.txt'), 'utf8'), '', 'truncation is committed at once');
    await call({ call: 'fd_write', fd: other, data: Buffer.from('lost') });
    assert.equal(await readFile(join(rw, 'a.txt'), 'utf8'), '');
    await fs.commitAll({ signal: new AbortController().signal, renaming: () => undefined });
    assert.equal(await readFile(join(rw, 'a.txt'), 'utf8'), 'lost', 'a clean end commits it');
  });

  it('creates exclusively, makes and removes directories, unlinks, and renames within a directory', async () => {
    const { call } = host();
    assert.equal((await call(open(RW, 'dir/b.txt', OFLAGS.CREAT | OFLAGS.EXCL, RIGHTS.FD_WRITE))).errno, ERRNO.EXIST);
    assert.equal((await call(open(RW, 'nope/c.txt', OFLAGS.CREAT, RIGHTS.FD_WRITE))).errno, ERRNO.NOENT);
    assert.equal((await call({ call: 'path_create_directory', fd: RW, path: 'made' })).errno, ERRNO.SUCCESS);
    assert.equal((await call({ call: 'path_create_directory', fd: RW, path: 'made' })).errno, ERRNO.EXIST);
    assert.equal((await call({ call: 'path_remove_directory', fd: RW, path: 'dir' })).errno, ERRNO.NOTEMPTY);
    assert.equal((await call({ call: 'path_unlink_file', fd: RW, path: 'dir' })).errno, ERRNO.ISDIR);
    assert.equal((await call({ call: 'path_rename', fd: RW, path: 'dir/b.txt', fd2: RW, path2: 'dir/c.txt' })).errno, ERRNO.SUCCESS);
    assert.equal(await readFile(join(rw, 'dir', 'c.txt'), 'utf8'), 'b');
    assert.equal((await call({ call: 'path_rename', fd: RW, path: 'dir/c.txt', fd2: RW, path2: 'made/c.txt' })).errno, ERRNO.XDEV);
    assert.equal((await call({ call: 'path_unlink_file', fd: RW, path: 'dir/c.txt' })).errno, ERRNO.SUCCESS);
    assert.equal((await call({ call: 'path_remove_directory', fd: RW, path: 'made' })).errno, ERRNO.SUCCESS);
    await assert.rejects(stat(join(rw, 'made')), { code: 'ENOENT' });
  });

  it('lists a directory in name order with cookies, resuming after a full buffer', async () => {
    const { call } = host();
    const fd = Number((await call(open(RW, '.', OFLAGS.DIRECTORY, RIGHTS.FD_READDIR))).value);
    const names = (data: Uint8Array): string[] => {
      const b = Buffer.from(data);
      const out: string[] = [];
      for (let at = 0; at + 24 <= b.length; ) {
        const len = b.readUInt32LE(at + 16);
        if (at + 24 + len > b.length) break;
        out.push(b.subarray(at + 24, at + 24 + len).toString());
        at += 24 + len;
      }
      return out;
    };
    const all = names((await call({ call: 'fd_readdir', fd, cookie: 0n, max: 4096 })).data ?? new Uint8Array(0));
    assert.deepEqual(all, ['a.txt', 'dir']);
    const first = await call({ call: 'fd_readdir', fd, cookie: 0n, max: 30 });
    assert.equal(first.data?.length, 30, 'a full buffer says there is more');
    assert.deepEqual(names((await call({ call: 'fd_readdir', fd, cookie: 1n, max: 4096 })).data ?? new Uint8Array(0)), ['dir']);
    assert.equal((await call({ call: 'fd_readdir', fd, cookie: -1n, max: 10 })).errno, ERRNO.INVAL);
  });

  it('the read-only preopen refuses every change, and the gate records each refusal', async () => {
    const { call, gate } = host();
    for (const c of [open(RO, 'r.txt', 0, RIGHTS.FD_WRITE), open(RO, 'new.txt', OFLAGS.CREAT), { call: 'path_unlink_file' as const, fd: RO, path: 'r.txt' }, { call: 'path_create_directory' as const, fd: RO, path: 'd' }]) {
      assert.equal((await call(c)).errno, ERRNO.NOTCAPABLE, JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    }
    assert.equal(gate.uses.filter((u) => !u.allowed && u.scope === 'fs.write').length, 4);
    assert.equal(await readFile(join(ro, 'r.txt'), 'utf8'), 'read only');
  });

  it('a path longer than the kernel opens is refused before it is split, and recorded', async () => {
    const { call, gate } = host();
    const t = performance.now();
    // One name and eight million slashes: split, millions of segments (0.5 s a call, before).
    assert.equal((await call(open(RW, `a${'/'.repeat(8_000_000)}`))).errno, ERRNO.NOTCAPABLE);
    assert.ok(performance.now() - t < 1_000, `${Math.round(performance.now() - t)} ms`);
    assert.deepEqual(gate.uses.filter((u) => !u.allowed).map((u) => u.code), ['POLICY_PATH_INVALID']);
  });

  it('a symlinked directory leading out of the preopen is refused as a middle component, to read and to write', async () => {
    const { call, gate } = host();
    const link = join(rw, 'away');
    await symlink(join(root, 'outside'), link);
    try {
      assert.equal((await call(open(RW, 'away/s.txt'))).errno, ERRNO.NOTCAPABLE);
      assert.equal((await call(open(RW, 'away/planted.txt', OFLAGS.CREAT, RIGHTS.FD_WRITE))).errno, ERRNO.NOTCAPABLE);
      assert.equal((await call({ call: 'path_create_directory', fd: RW, path: 'away/d' })).errno, ERRNO.NOTCAPABLE);
      assert.equal((await call({ call: 'path_filestat_get', fd: RW, follow: true, path: 'away/s.txt' })).errno, ERRNO.NOTCAPABLE);
      assert.deepEqual(
        gate.uses.filter((u) => !u.allowed).map((u) => u.code),
        ['POLICY_PATH_DENIED', 'POLICY_PATH_DENIED', 'POLICY_PATH_DENIED', 'POLICY_PATH_DENIED'],
      );
      await assert.rejects(stat(join(root, 'outside', 'planted.txt')), { code: 'ENOENT' });
      await assert.rejects(stat(join(root, 'outside', 'd')), { code: 'ENOENT' });
      // Without symlink_follow, a final symlink is LOOP, wherever it leads.
      assert.equal((await call(open(RW, 'away', 0, RIGHTS.FD_READ, 0, false))).errno, ERRNO.LOOP);
    } finally {
      await unlink(link);
    }
  });

  it('an unknown descriptor is BADF; a file is not a directory', async () => {
    const { call } = host();
    assert.equal((await call(open(99, 'a.txt'))).errno, ERRNO.BADF);
    const fd = Number((await call(open(RW, 'a.txt'))).value);
    assert.equal((await call(open(fd, 'x'))).errno, ERRNO.NOTDIR);
    assert.equal((await call(open(RW, 'a.txt', OFLAGS.DIRECTORY))).errno, ERRNO.NOTDIR);
  });

  it('fd_write_check answers as fd_write would, changing nothing', async () => {
    const { call } = host();
    const size = 1024 * 1024;
    assert.equal((await call({ call: 'fd_write_check', fd: 99, size })).errno, ERRNO.BADF);
    assert.equal((await call({ call: 'fd_write_check', fd: RW, size })).errno, ERRNO.ISDIR);
    const ro = Number((await call(open(RW, 'a.txt'))).value);
    assert.equal((await call({ call: 'fd_write_check', fd: ro, size })).errno, ERRNO.NOTCAPABLE);
    const fd = Number((await call(open(RW, 'check.txt', OFLAGS.CREAT, RIGHTS.FD_WRITE | RIGHTS.FD_ALLOCATE))).value);
    assert.equal((await call({ call: 'fd_write_check', fd, size: WASI_MAX_FILE_BYTES + 1 })).errno, ERRNO.FBIG);
    assert.equal((await call({ call: 'fd_write_check', fd, size: 1, offset: BigInt(WASI_MAX_FILE_BYTES) })).errno, ERRNO.FBIG);
    assert.equal((await call({ call: 'fd_write_check', fd, size })).errno, ERRNO.SUCCESS);
    assert.equal(Buffer.from((await call({ call: 'fd_filestat_get', fd })).data ?? []).readBigUInt64LE(32), 0n, 'nothing was written');
    // Two files near the bound each: the second cannot be held beside the first (128 MiB for all open files).
    assert.equal((await call({ call: 'fd_allocate', fd, offset: 0n, len: BigInt(WASI_MAX_FILE_BYTES) })).errno, ERRNO.SUCCESS);
    const second = Number((await call(open(RW, 'check2.txt', OFLAGS.CREAT, RIGHTS.FD_WRITE | RIGHTS.FD_ALLOCATE))).value);
    assert.equal((await call({ call: 'fd_allocate', fd: second, offset: 0n, len: BigInt(WASI_MAX_FILE_BYTES - 1024) })).errno, ERRNO.SUCCESS);
    const third = Number((await call(open(RW, 'check3.txt', OFLAGS.CREAT, RIGHTS.FD_WRITE))).value);
    assert.equal((await call({ call: 'fd_write_check', fd: third, size: 2048 })).errno, ERRNO.NOMEM);
  });
});
