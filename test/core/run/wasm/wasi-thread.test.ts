// WASI in the module's thread (src/core/run/wasm/wasi-thread.ts), called directly with a memory and
// a host of the test's making: what fd_write copies out of the guest's memory, and when. iovecs may
// all name the same megabytes; whatever their total, nothing is copied for a descriptor that cannot
// take it (the host is asked first), and stdout and stderr hold no more than their limits. What is
// copied pays fuel (one unit per 64 bytes, charged by thread.ts), what is refused does not.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ERRNO, WASI_UNCHECKED_WRITE_BYTES } from '../../../../src/core/run/wasm/wasi-abi.js';
import { guestMemory } from '../../../../src/core/run/wasm/wasi-guest-memory.js';
import { wasiImports, type WasiThreadContext } from '../../../../src/core/run/wasm/wasi-thread.js';
import type { WasiAnswer, WasiRequest } from '../../../../src/core/run/wasm/wasi-wire.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { engine, errorCodes } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';
import { compileWat } from '../../../helpers/wat.js';

const MiB = 1024 * 1024;
const IOVS = MiB + 16;
const NWRITTEN = MiB + 8;

/** A guest of 2 MiB whose iovecs at IOVS are `count` x (ptr 0, len `len`), and a host that answers `answer`. */
function guest(count: number, len: number, answer: (req: WasiRequest) => WasiAnswer) {
  const memory = new Uint8Array(2 * MiB);
  const view = new DataView(memory.buffer);
  for (let i = 0; i < count; i++) {
    view.setUint32(IOVS + i * 8, 0, true);
    view.setUint32(IOVS + i * 8 + 4, len, true);
  }
  const asked: WasiRequest[] = [];
  let paid = 0;
  const ctx: WasiThreadContext = {
    mem: (ptr, n) => (ptr >= 0 && n >= 0 && ptr + n <= memory.length ? memory.subarray(ptr, ptr + n) : undefined),
    text: () => undefined,
    ask: (req) => {
      asked.push(req);
      return answer(req);
    },
    stop: (r) => {
      throw Object.assign(new Error('stopped'), { result: r });
    },
    input: new Uint8Array(0),
    args: [],
    env: [],
    maxOutputBytes: 4096,
    maxStderrBytes: 100,
    uncheckedWriteBytes: WASI_UNCHECKED_WRITE_BYTES,
    pay: (bytes) => {
      paid += bytes;
    },
    payPath: () => undefined,
  };
  const wasi = wasiImports(ctx, guestMemory);
  const call = (name: string, ...args: (number | bigint)[]): number => (wasi.imports[name] as unknown as (...a: (number | bigint)[]) => number)(...args);
  /** The guest's bytes that reached the host, over every request. */
  const copied = (): number => asked.reduce((n, r) => n + (r.call === 'fd_write' ? r.data.length : 0), 0);
  return { call, asked, copied, view, wasi, paid: () => paid };
}
/** What one iovec pays, in bytes' worth (sixteen units of one in 64: wasi-thread.ts). */
const IOVEC_BYTES = 16 * 64;
/** What a call forwarded to the host pays (1,024 units: wasi-thread.ts). */
const CALL_BYTES = 1024 * 64;
const answer = (errno: number, value?: bigint): WasiAnswer => ({ kind: 'wasi', errno, ...(value !== undefined ? { value } : {}) });

describe('WASI fd_write in the module thread', () => {
  const tmp = tempDir('skillctl-wasi-iov-');

  it('1024 iovecs of the same MiB to a descriptor that does not exist: BADF, and nothing copied', () => {
    const g = guest(1024, MiB, () => answer(ERRNO.BADF));
    assert.equal(g.call('fd_write', 99, IOVS, 1024, NWRITTEN), ERRNO.BADF);
    assert.equal(g.call('fd_pwrite', 99, IOVS, 1024, 0n, NWRITTEN), ERRNO.BADF);
    assert.deepEqual(
      g.asked.map((r) => r.call),
      ['fd_write_check', 'fd_write_check'],
    );
    assert.equal(g.copied(), 0);
  });

  it('a large write the host would refuse (past the file bound) gets its errno, nothing copied and its bytes unpaid; one it takes is copied once and pays its fuel', () => {
    const refused = guest(1024, MiB, (req) => answer(req.call === 'fd_write_check' ? ERRNO.FBIG : ERRNO.SUCCESS));
    assert.equal(refused.call('fd_write', 5, IOVS, 1024, NWRITTEN), ERRNO.FBIG);
    assert.equal(refused.copied(), 0);
    // Paid for its 1,024 iovecs (sixteen units each) and its check, never for the bytes refused.
    assert.equal(refused.paid(), 1024 * IOVEC_BYTES + CALL_BYTES);
    const taken = guest(3, MiB, (req) => answer(ERRNO.SUCCESS, req.call === 'fd_write' ? BigInt(req.data.length) : undefined));
    assert.equal(taken.call('fd_write', 5, IOVS, 3, NWRITTEN), ERRNO.SUCCESS);
    assert.deepEqual(
      taken.asked.map((r) => r.call),
      ['fd_write_check', 'fd_write'],
    );
    assert.equal(taken.copied(), 3 * MiB);
    assert.equal(taken.paid(), 3 * MiB + 3 * IOVEC_BYTES + 2 * CALL_BYTES);
    assert.equal(taken.view.getUint32(NWRITTEN, true), 3 * MiB);
  });

  it('a small write goes with its bytes, in one request', () => {
    const g = guest(2, WASI_UNCHECKED_WRITE_BYTES / 2, () => answer(ERRNO.BADF));
    assert.equal(g.call('fd_write', 99, IOVS, 2, NWRITTEN), ERRNO.BADF);
    assert.deepEqual(
      g.asked.map((r) => r.call),
      ['fd_write'],
    );
    assert.equal(g.copied(), WASI_UNCHECKED_WRITE_BYTES);
  });

  it('stdout past its limit stops the module before copying; stderr keeps its first bytes; a closed stdout is the host\'s', () => {
    const out = guest(1024, MiB, () => answer(ERRNO.BADF));
    assert.throws(() => out.call('fd_write', 1, IOVS, 1024, NWRITTEN), (e: { result?: { t: string } }) => e.result?.t === 'output_limit');
    const err = guest(1024, MiB, () => answer(ERRNO.BADF));
    assert.equal(err.call('fd_write', 2, IOVS, 1024, NWRITTEN), ERRNO.SUCCESS);
    const exit = err.wasi.exit(0);
    assert.equal(exit.stderr.length, 100);
    assert.ok(exit.stderrTruncated);
    assert.equal(err.call('fd_close', 1), ERRNO.SUCCESS);
    assert.equal(err.call('fd_write', 1, IOVS, 1024, NWRITTEN), ERRNO.BADF);
    assert.equal(err.copied(), 0);
    // What stdout takes pays its fuel; what past its limit stops the module paid for its iovecs only.
    assert.equal(out.paid(), 1024 * IOVEC_BYTES);
    const taken = guest(2, 2048, () => answer(ERRNO.BADF));
    assert.equal(taken.call('fd_write', 1, IOVS, 2, NWRITTEN), ERRNO.SUCCESS);
    assert.equal(taken.paid(), 4096 + 2 * IOVEC_BYTES);
  });

  it('a module making 3 GiB of such writes gets BADF each time and goes on', async () => {
    const root = realpathSync(tmp);
    const dir = join(root, 'bomb');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat('hostile-iovec-bomb'));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} })] });
    const r = await engine({ cwd: root, target: dir, input: {} });
    assert.equal(r.status, 'ok', JSON.stringify(errorCodes(r)));
    assert.deepEqual(r.output, { ok: 'badf' });
  });
});
