/**
 * Names the files behind a failed pin. The lock holds one digest per bundle, so the verifier can
 * say only that `manifests/hello` no longer matches; in a git tree the files that differ from the
 * base (HEAD for the index, the first parent for a commit) are known, and are what a user needs
 * to look at: the hint of the pin's files_digest (file_digest for a pack, archive_digest for an
 * archive) lists them.
 */
import { posix } from 'node:path';
import type { Diagnostic } from '../../../core/diagnostics.js';
import { changedPaths, type GitTree } from '../../../core/git-tree/index.js';
import type { LockVerification } from '../../../core/pins/index.js';

/** Names listed in one hint; the rest are counted. */
const SHOWN = 10;

export interface ExplainOptions {
  /** The tree verified and the one it is compared with. */
  readonly tree: GitTree;
  readonly base: GitTree;
  /** The project root's path in the tree ('' at the top). */
  readonly rootInTree: string;
  /** What the changes are, for the hint: `staged against HEAD`, `in commit 1a2b3c4d against its first parent`. */
  readonly what: string;
}

const WHOLE = /^\/(skills|packs)\/(\d+)\/(files_digest|file_digest|archive_digest)$/;

/** `result` with the changed files named in the hint of each pin's whole-content digest finding. */
export function explainChanges(result: LockVerification, opts: ExplainOptions): LockVerification {
  if (result.format !== 'skillctl') return result;
  const sourceAt = (kind: string, i: number): string | undefined => {
    const r = kind === 'skills' ? result.skills[i] : result.packs[i];
    return r !== undefined && 'source' in r.pin ? r.pin.source.replace(/\/+$/, '') : undefined;
  };
  const diagnostics = result.diagnostics.map((d): Diagnostic => {
    const m = d.code === 'PIN_MODIFIED' && d.pointer !== undefined ? WHOLE.exec(d.pointer) : null;
    const source = m === null ? undefined : sourceAt(m[1] as string, Number(m[2]));
    if (source === undefined) return d;
    const inTree = opts.rootInTree === '' ? source : posix.join(opts.rootInTree, source);
    // A pack or an archive is one file; a bundle is the files under its folder.
    const [now, then] = [opts.tree.entries.get(inTree), opts.base.entries.get(inTree)];
    const changed = now !== undefined || then !== undefined ? (now?.oid === then?.oid && now?.kind === then?.kind ? [] : [inTree]) : changedPaths(opts.tree, opts.base, inTree);
    if (changed.length === 0) return d;
    const names = changed.slice(0, SHOWN).map((p) => (opts.rootInTree === '' ? p : posix.relative(opts.rootInTree, p)));
    const more = changed.length > SHOWN ? ` and ${changed.length - SHOWN} more` : '';
    const note = `changed ${opts.what}: ${names.join(', ')}${more}`;
    return { ...d, hint: d.hint !== undefined ? `${note}; ${d.hint}` : note };
  });
  return { ...result, diagnostics };
}
