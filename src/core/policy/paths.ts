/**
 * Path checks shared by the policy gate and the grant computation. A path is judged by where it
 * really leads: symlinks are resolved (for a path that does not exist yet, its deepest existing
 * ancestor is), so a link inside a granted directory that points outside it is outside.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import { errnoCode } from '../errors.js';
import { within } from '../fs/within.js';

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The longest path the kernel opens (Linux PATH_MAX, 4,096 bytes with its NUL): a longer one
 * opens nothing, so it has no real path to judge.
 */
export const PATH_MAX_BYTES = 4095;

export type PathForm = { readonly ok: true; readonly absolute: string } | { readonly ok: false; readonly reason: string };

/**
 * The absolute, lexically normal form of `path` (relative to `cwd`), or why its form is refused:
 * empty, longer than the kernel opens, a control character or NUL, a backslash, or a `.`/`..`
 * segment (a leading `./` and a lone `.` are allowed). Refusing `..` outright, rather than
 * normalising it, means no later join can turn an allowed-looking path into a different one.
 */
export function pathForm(path: unknown, cwd: string): PathForm {
  if (typeof path !== 'string' || path === '') return { ok: false, reason: 'not a non-empty string' };
  // First, before any pass over it: a skill's path may be megabytes (a wasm module's memory).
  if (Buffer.byteLength(path) > PATH_MAX_BYTES) return { ok: false, reason: `is longer than the kernel opens (${PATH_MAX_BYTES} bytes)` };
  if (CONTROL.test(path)) return { ok: false, reason: 'contains a control character or NUL' };
  if (path.includes('\\')) return { ok: false, reason: 'contains a backslash' };
  const rest = path === '.' ? '' : path.replace(/^(?:\.\/+)+/, '');
  const segments = rest.split('/');
  if (segments.includes('..')) return { ok: false, reason: 'contains a `..` segment' };
  if (segments.includes('.')) return { ok: false, reason: 'contains a `.` segment' };
  const joined = isAbsolute(path) ? path : join(cwd, rest);
  const normal = posix.normalize(joined).replace(/(.)\/+$/, '$1');
  return { ok: true, absolute: normal };
}

/** What a path that does not exist yet gives: ENOENT or ENOTDIR; anything else is thrown. */
async function realOrMissing(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    return undefined;
  }
}

/**
 * `path` with every symlink resolved. For a path that does not exist, the deepest existing
 * ancestor is resolved and the missing rest appended (a file about to be created).
 * Throws ELOOP and other errors except ENOENT/ENOTDIR; ENAMETOOLONG past PATH_MAX_BYTES.
 *
 * A skill chooses the paths asked about (a hostcall's, a tool's argument, a manifest's grant):
 * climbed one ancestor at a time, each a call of its own awaited inside the last, a path of
 * 4,096 missing components (8 KiB) took 11 s, and 32,768 (64 KiB, within a wasm module's memory)
 * ran skillctl out of its heap, killed, with no record of the run. So the path is bounded, and
 * the deepest existing ancestor found by halving: an ancestor of a missing one is missing.
 */
export async function resolveReal(path: string): Promise<string> {
  if (Buffer.byteLength(path) > PATH_MAX_BYTES) throw Object.assign(new Error(`the path is longer than ${PATH_MAX_BYTES} bytes`), { code: 'ENAMETOOLONG' });
  const whole = await realOrMissing(path);
  if (whole !== undefined) return whole;
  // The path's ancestors, nearest first (the last is the root, presumed present), and the name
  // each step up leaves behind.
  const up: string[] = [];
  const names: string[] = [basename(path)];
  for (let p = dirname(path); up.at(-1) !== p; p = dirname(p)) {
    up.push(p);
    names.push(basename(p));
  }
  // up[i] is missing for i < lo, present for i >= hi.
  let lo = 0;
  let hi = up.length - 1;
  let found: string | undefined;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const real = await realOrMissing(up[mid] as string);
    if (real === undefined) lo = mid + 1;
    else [hi, found] = [mid, real];
  }
  const base = found ?? (await realOrMissing(up[hi] as string));
  if (base === undefined) throw Object.assign(new Error('no ancestor of the path exists'), { code: 'ENOENT' });
  return join(base, ...names.slice(0, hi + 1).reverse());
}

export { within };

/** File systems of the kernel: a view of processes, devices and the host, not of files. */
const KERNEL_DIRS = ['/proc', '/sys', '/dev'] as const;

/**
 * Why `real` may not be reached through `root`, or undefined. /proc, /sys and /dev hold the
 * host's secrets (`/proc/self/environ` is skillctl's own environment, cloud keys included) and
 * devices: they are reachable only through a grant that names them (or a path inside them)
 * itself, never through a parent such as `/`.
 */
export function kernelDirReason(real: string, root: string): string | undefined {
  const dir = KERNEL_DIRS.find((k) => within(real, k));
  if (dir === undefined || within(root, dir)) return undefined;
  return `${dir} is reachable only when the policy grants it (or a path inside it) by name, not through ${root}`;
}
