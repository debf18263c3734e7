// The rlimits of a program a built-in starts where no cgroup holds the run
// (test/security/process-count.test.ts runs them as nobody).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNodeProgram, limitArgs } from '../../../src/core/run/program-limits.js';

describe('limits of a built-in\'s programs', () => {
  it('an address-space limit of max_memory (a data limit does not count shared anonymous memory), and the process count where the sandbox counts its own', () => {
    assert.deepEqual(limitArgs(64 << 20, true), ['--core=0', `--as=${64 << 20}`, '--nproc=256']);
    assert.deepEqual(limitArgs(64 << 20, false), ['--core=0', `--as=${64 << 20}`]);
  });

  it('node gets a data-segment limit above its baseline (V8 reserves far more address space than it uses), or none when that is unknown', () => {
    assert.deepEqual(limitArgs(64 << 20, false, { baselineKiB: 50_000 }), ['--core=0', `--data=${(64 << 20) + 50_000 * 1024}`]);
    assert.deepEqual(limitArgs(64 << 20, true, { baselineKiB: undefined }), ['--core=0', '--nproc=256']);
    assert.deepEqual(['node', 'nodejs', 'node24', 'noder', 'nodejs-x', 'python3'].map((n) => isNodeProgram(`/usr/bin/${n}`)), [true, true, true, false, false, false]);
  });
});
