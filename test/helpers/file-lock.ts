/** A file lock for tests that append to one audit log from several processes: short, jittered waits. */
import { hostname } from 'node:os';
import type { FileLockOptions } from '../../src/core/fs/index.js';

export function testFileLock(): FileLockOptions {
  return {
    now: () => Date.now(),
    pid: process.pid,
    hostname: hostname(),
    isAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    sleep: () => new Promise((r) => setTimeout(r, 1 + Math.floor(Math.random() * 4))),
    timeoutMs: 30_000,
    staleMs: 60_000,
  };
}
