// The sandbox's seccomp filter, run by a classic BPF evaluator for every ABI it covers (only the
// machine's own can be run for real: test/security/tmpfs-limits.test.ts does).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ABIS, encodeProgram, filterProgram, sandboxFilter } from '../../../src/core/run/seccomp.js';

const ALLOW = 0x7fff0000;
const ENOSYS = 0x00050000 | 38;

/** Runs the encoded program (little-endian) on seccomp_data { nr, arch }: the action it returns. */
function evaluate(program: Uint8Array, arch: number, nr: number): number {
  const buf = Buffer.from(program);
  const data = Buffer.alloc(8);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  let acc = 0;
  for (let pc = 0; pc < buf.length / 8; pc++) {
    const code = buf.readUInt16LE(pc * 8);
    const jt = buf.readUInt8(pc * 8 + 2);
    const jf = buf.readUInt8(pc * 8 + 3);
    const k = buf.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = data.readUInt32LE(k);
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unknown instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program ran off its end');
}

const X86_64 = 0xc000003e;
const I386 = 0x40000003;
const AARCH64 = 0xc00000b7;
const ARM = 0x40000028;

describe('the seccomp filter', () => {
  const x64 = encodeProgram(filterProgram(ABIS.x64 ?? []), 'LE');
  const arm64 = encodeProgram(filterProgram(ABIS.arm64 ?? []), 'LE');

  it('on x86-64: memfd_create, memfd_secret, shmget, msgget, add_key, request_key and keyctl fail with ENOSYS in the 64-bit, x32 and i386 ABIs; other calls are allowed', () => {
    for (const nr of [319, 447, 29, 68, 248, 249, 250]) {
      assert.equal(evaluate(x64, X86_64, nr), ENOSYS, `x86_64 ${nr}`);
      assert.equal(evaluate(x64, X86_64, 0x40000000 | nr), ENOSYS, `x32 ${nr}`);
    }
    for (const nr of [356, 447, 395, 399, 117, 286, 287, 288]) assert.equal(evaluate(x64, I386, nr), ENOSYS, `i386 ${nr}`);
    // read, write, mmap, shmat (nothing to attach without shmget), mq_open, clone.
    for (const nr of [0, 1, 9, 30, 240, 56]) assert.equal(evaluate(x64, X86_64, nr), ALLOW, `x86_64 ${nr}`);
    for (const nr of [0x40000000, 0x40000001]) assert.equal(evaluate(x64, X86_64, nr), ALLOW, `x32 ${nr}`);
    // i386's read and mmap2; 319 is not memfd_create there (it is epoll_pwait).
    for (const nr of [3, 192, 319]) assert.equal(evaluate(x64, I386, nr), ALLOW, `i386 ${nr}`);
  });

  it('on arm64: the same calls fail with ENOSYS in the 64-bit and 32-bit ABIs', () => {
    for (const nr of [279, 447, 194, 186, 217, 218, 219]) assert.equal(evaluate(arm64, AARCH64, nr), ENOSYS, `aarch64 ${nr}`);
    for (const nr of [385, 447, 307, 303, 309, 310, 311]) assert.equal(evaluate(arm64, ARM, nr), ENOSYS, `arm ${nr}`);
    // aarch64's read, write and mmap; 319 is not memfd_create there.
    for (const nr of [63, 64, 222, 319]) assert.equal(evaluate(arm64, AARCH64, nr), ALLOW, `aarch64 ${nr}`);
  });

  it('refuses every call of an ABI it does not know', () => {
    assert.equal(evaluate(x64, AARCH64, 63), ENOSYS);
    assert.equal(evaluate(arm64, X86_64, 0), ENOSYS);
    assert.equal(evaluate(x64, 0xc00000f3, 0), ENOSYS, 'riscv64');
  });

  it('is struct sock_filter[] in the byte order asked for, 8 bytes an instruction', () => {
    const be = encodeProgram(filterProgram(ABIS.x64 ?? []), 'BE');
    assert.equal(be.length, x64.length);
    assert.equal(x64.length % 8, 0);
    // The first instruction loads the arch (offset 4): code 0x20, k 4.
    assert.deepEqual([...x64.subarray(0, 8)], [0x20, 0, 0, 0, 4, 0, 0, 0]);
    assert.deepEqual([...be.subarray(0, 8)], [0, 0x20, 0, 0, 0, 0, 0, 4]);
  });

  it('is there for x64 and arm64 only: none is installed where the numbers are not known', () => {
    assert.ok(sandboxFilter('x64') instanceof Uint8Array);
    assert.ok(sandboxFilter('arm64') instanceof Uint8Array);
    assert.equal(sandboxFilter('riscv64'), undefined);
  });
});
