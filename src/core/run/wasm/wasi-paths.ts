/**
 * A guest's path, resolved for the checked file layer. WASI paths are relative to a directory
 * descriptor; here they become host paths that the gate and the checked layer (checked-fs.ts)
 * judge as they judge the built-in skills' and the provenact hostcalls' paths: the kernel says
 * what a handle opened, and the policy decides about that real path. An absolute path, a `..`, a
 * control character or a backslash is refused (NOTCAPABLE), and every refusal is recorded in the
 * audit trail with the gate's own code and reason. Unlike a provenact hostcall a refusal does not
 * stop the module: WASI has an errno for it.
 */
import { isFailure, PATH_MAX_BYTES, type CheckedFs, type RecordingGate } from '../../policy/index.js';
import { ERRNO } from './wasi-abi.js';
import type { DirFd } from './wasi-fd-table.js';
import { err, type WasiAnswer } from './wasi-wire.js';

export type Scope = 'fs.read' | 'fs.write';

/** A guest path as a host path, with its parent directory and last component (none: the directory itself). */
export interface GuestPath {
  readonly abs: string;
  readonly parent: string;
  readonly name: string | undefined;
}

const CONTROL = /[\u0000-\u001f\u007f\\]/;

/** The scope a directory descriptor reads under: fs.read where granted, else the fs.write root's own. */
export const scopeOf = (d: DirFd): Scope => (d.read ? 'fs.read' : 'fs.write');

/**
 * A guest path under a directory descriptor, as a host path for the checked layer; or a
 * refusal the gate has recorded. Absolute paths are refused (WASI paths are relative to their
 * directory); `..`, control characters and backslashes are refused by the gate's own form check.
 */
export async function pathUnder(gate: RecordingGate, d: DirFd, path: string, scope: Scope): Promise<GuestPath | WasiAnswer> {
  if (path.startsWith('/')) {
    gate.recordRefusal(scope, 'POLICY_PATH_DENIED', `${scope}: an absolute path given to a WASI directory descriptor; its paths are relative to it`);
    return err(ERRNO.NOTCAPABLE);
  }
  // Before it is split: megabytes of `a////…` were millions of segments, a run's thread held
  // half a second a call. The gate refuses the form (and records it) without a pass over it.
  if (Buffer.byteLength(path) > PATH_MAX_BYTES) {
    await (scope === 'fs.read' ? gate.checkRead(path) : gate.checkWrite(path));
    return err(ERRNO.NOTCAPABLE);
  }
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  const base = d.real === '/' ? '' : d.real;
  const abs = segments.length === 0 ? d.real : `${base}/${segments.join('/')}`;
  if (segments.includes('..') || CONTROL.test(path)) {
    // Asked through the gate, so the refusal is recorded with the gate's own code and reason.
    await (scope === 'fs.read' ? gate.checkRead(abs) : gate.checkWrite(abs));
    return err(ERRNO.NOTCAPABLE);
  }
  const name = segments.at(-1);
  const parent = segments.length <= 1 ? d.real : `${base}/${segments.slice(0, -1).join('/')}`;
  return { abs, parent, name };
}

/** A FIFO, device or socket: refused and recorded (WASI opens only files and directories). */
export function refuseSpecial(gate: RecordingGate, scope: Scope): WasiAnswer {
  gate.recordRefusal(scope, 'POLICY_PATH_DENIED', `${scope}: the path is not a regular file or a directory (a FIFO, device or socket); WASI opens only files and directories`);
  return err(ERRNO.NOTCAPABLE);
}

/** A descriptor of an fs.read grant asked to write: refused and recorded. */
export function refuseReadOnly(gate: RecordingGate, what: string): WasiAnswer {
  gate.recordRefusal('fs.write', 'POLICY_PATH_DENIED', `fs.write: the directory descriptor is read-only (a preopen of an fs.read grant)${what}`);
  return err(ERRNO.NOTCAPABLE);
}

/** With `follow` false, a last component that is a symlink: LOOP (as O_NOFOLLOW). */
export async function symlinkAtEnd(files: CheckedFs, parent: string, name: string | undefined, scope: Scope): Promise<boolean> {
  if (name === undefined) return false;
  const pd = await files.openDir(parent, scope);
  if (isFailure(pd)) return false;
  try {
    const st = await pd.lstat(name);
    return !isFailure(st) && st.isSymbolicLink();
  } finally {
    await pd.close();
  }
}
