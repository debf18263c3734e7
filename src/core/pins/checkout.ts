/**
 * Pinned files whose checkout is not the blob verified. `verify-pins --staged` and `--rev` hash
 * the raw blobs, but git writes a file through the attributes the tree's `.gitattributes` give
 * it: a `filter` runs a program (git-lfs's smudge writes the object a pointer names: the pointer
 * is what was pinned and reviewed, the object what every developer with git-lfs gets and an
 * agent loads), `working-tree-encoding` re-encodes, `ident` expands `$Id$`, `eol=crlf` turns LF
 * into CRLF. A pinned file given any of them, and a pinned file that is an LFS pointer (a later
 * `.gitattributes` change, outside every pinned folder, would turn it into its object), is a
 * finding. The attributes are git's answer (`git check-attr`), asked by the caller; line-ending
 * conversion a developer's own `core.autocrlf` asks for is not in the tree, and the working
 * tree's verification sees it.
 */
import { join, relative } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { LockContext } from './context.js';

/** The attributes asked for, as `git check-attr` names them. */
export const CHECKOUT_ATTRIBUTES = ['filter', 'working-tree-encoding', 'ident', 'eol', 'text'] as const;

/** `git check-attr`'s answer for one path: `set`, `unset`, `unspecified`, or the value. */
export type CheckoutAttributes = Readonly<Partial<Record<(typeof CHECKOUT_ATTRIBUTES)[number], string>>>;

export interface CheckedOutFile {
  /** Relative to the project root. */
  readonly path: string;
  /** One answer for each way a checkout matches patterns (case-sensitive, and ignoring case as macOS and Windows do). */
  readonly attributes: readonly CheckoutAttributes[];
  /** The blob is a Git LFS pointer. */
  readonly lfsPointer: boolean;
}

/** The LFS specification's bound: a pointer is smaller than this. */
export const LFS_POINTER_MAX = 1024;
const LFS_POINTER = /^version https:\/\/(?:git-lfs|hawser)\.github\.com\/spec\/v1\n/;

/** True when `bytes` (a blob of at most LFS_POINTER_MAX bytes) is a Git LFS pointer. */
export function isLfsPointer(bytes: Uint8Array): boolean {
  return bytes.length < LFS_POINTER_MAX && LFS_POINTER.test(Buffer.from(bytes).toString('latin1'));
}

const given = (v: string | undefined): v is string => v !== undefined && v !== 'unspecified' && v !== 'unset';

/** The attributes under which a checkout writes other bytes than the blob's, as `name=value`. */
export function conversionsOf(a: CheckoutAttributes): string[] {
  const out: string[] = [];
  // Any filter: the driver is the checking-out machine's configuration, whatever it is named.
  if (given(a.filter)) out.push(`filter=${a.filter}`);
  if (given(a['working-tree-encoding'])) out.push(`working-tree-encoding=${a['working-tree-encoding']}`);
  if (a.ident === 'set') out.push('ident');
  // eol sets text unless text is unset; LF becomes CRLF in every checkout.
  if (a.eol === 'crlf' && a.text !== 'unset') out.push('eol=crlf');
  return out;
}

/** PIN_CHECKOUT_CONVERTED for each file that a checkout would not write as its blob. */
export function checkCheckout(files: readonly CheckedOutFile[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of files) {
    const attrs = [...new Set(f.attributes.flatMap(conversionsOf))];
    const why = [...(attrs.length > 0 ? [`its attributes convert it (${attrs.join(', ')})`] : []), ...(f.lfsPointer ? ['it is a Git LFS pointer, which git-lfs replaces with the object it names'] : [])];
    if (why.length === 0) continue;
    out.push(
      diag('PIN_CHECKOUT_CONVERTED', `${f.path} is verified as committed, but a checkout writes other bytes: ${why.join('; ')}`, {
        file: f.path,
        hint: 'commit pinned files as they are to be loaded: no filter, working-tree-encoding, ident or eol=crlf in .gitattributes for them, and no LFS pointers',
      }),
    );
  }
  return out;
}

/**
 * What a checkout must write byte for byte, relative to the project root: every pinned source (a
 * folder whole) and the keys file a skillctl lock pins (a provenact bundle holds its own). The
 * lock itself is the caller's to add: it may come from stdin.
 */
export function checkoutAnchors(ctx: LockContext): string[] {
  const strip = (s: string): string => s.replace(/\/+$/, '');
  if (ctx.format === 'provenact') return ctx.lock.skills.map((p) => strip(p.bundle_dir));
  const keys = ctx.lock.keys_file !== undefined ? [relative(ctx.root, join(ctx.lockDir, ctx.lock.keys_file)).split('\\').join('/')] : [];
  return [...ctx.lock.skills.map((p) => strip(p.source)), ...ctx.lock.packs.map((p) => p.source), ...keys];
}
