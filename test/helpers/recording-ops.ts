/**
 * A bundle walk's file-system calls (src/core/bundle/dir-ops.ts) with a record of what they open:
 * `dirs`, every directory by the path it was opened under; `files`, every regular file read,
 * digested or hashed, by its name. Tests of the walks count them to show what is opened once.
 */
import assert from 'node:assert/strict';
import type { DirOps } from '../../src/core/bundle/index.js';

export function recordingOps(ops: DirOps): { ops: DirOps; dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  const note = (path: string): void => void files.push(path.slice(path.lastIndexOf('/') + 1));
  const openDir = ops.openDir?.bind(ops);
  const hashRegular = ops.hashRegular?.bind(ops);
  assert.ok(openDir !== undefined && hashRegular !== undefined);
  return {
    dirs,
    files,
    ops: {
      ...ops,
      openDir: (path, follow) => (dirs.push(path), openDir(path, follow)),
      readRegular: (path) => (note(path), ops.readRegular(path)),
      digestRegular: (path) => (note(path), ops.digestRegular(path)),
      hashRegular: (path, max, keep) => (note(path), hashRegular(path, max, keep)),
    },
  };
}
