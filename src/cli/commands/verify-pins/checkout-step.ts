/**
 * `verify-pins --staged` and `--rev`: the pinned files (and the lock, and its keys file) that a
 * checkout would write as other bytes than the blobs verified (src/core/pins/checkout.ts). The
 * attributes are git's answer from the tree's own .gitattributes (./check-attr.ts); an LFS pointer
 * is told by the blob's first bytes.
 */
import { join, posix } from 'node:path';
import type { Diagnostic } from '../../../core/diagnostics.js';
import { CHECKOUT_ATTRIBUTES, checkCheckout, checkoutAnchors, isLfsPointer, LFS_POINTER_MAX, type CheckedOutFile, type LockContext } from '../../../core/pins/index.js';
import type { OpenedTree } from './git-tree.js';

/** Whether `rel` is in `anchors` or below one of them: one lookup a level. */
function anchored(rel: string, anchors: ReadonlySet<string>): boolean {
  if (anchors.has(rel)) return true;
  for (let cut = rel.lastIndexOf('/'); cut > 0; cut = rel.lastIndexOf('/', cut - 1)) if (anchors.has(rel.slice(0, cut))) return true;
  return false;
}

/** `lockPath`: the lock's path when it was read from the tree (undefined for stdin). */
export async function checkoutFindings(opened: OpenedTree, ctx: LockContext, root: string, lockPath: string | undefined): Promise<Diagnostic[]> {
  const rootInTree = posix.relative(opened.top, root);
  if (rootInTree.startsWith('..') || posix.isAbsolute(rootInTree)) return [];
  const anchors = new Set(checkoutAnchors(ctx));
  if (lockPath !== undefined) anchors.add(posix.relative(root, lockPath));
  // A source reached through a link in the tree (`tools/hello`, `tools -> lib`) is read where the
  // link leads, and git converts the files there (`lib/hello/run.js`): their paths are anchored too.
  for (const a of [...anchors]) {
    const real = await opened.ops.realpath(join(root, ...a.split('/'))).catch(() => undefined);
    const rel = real === undefined ? undefined : posix.relative(root, real);
    if (rel !== undefined && rel !== '' && !rel.startsWith('..') && !posix.isAbsolute(rel)) anchors.add(rel);
  }
  const under = rootInTree === '' ? '' : `${rootInTree}/`;
  // Links and submodules are refused where pinned; a filter applies to file contents.
  const files = [...opened.tree.entries.values()]
    .filter((e) => (e.kind === 'file' || e.kind === 'executable') && e.path.startsWith(under) && anchored(e.path.slice(under.length), anchors))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const attributes = await opened.attributes(
    files.map((e) => e.path),
    CHECKOUT_ATTRIBUTES,
  );
  const checked: CheckedOutFile[] = [];
  for (const e of files) {
    let lfsPointer = false;
    if (e.size < LFS_POINTER_MAX) {
      const read = await opened.ops.readBounded(join(opened.top, ...e.path.split('/')), { maxBytes: LFS_POINTER_MAX });
      lfsPointer = read.ok && isLfsPointer(read.bytes);
    }
    checked.push({ path: e.path.slice(under.length), attributes: attributes.get(e.path) ?? [], lfsPointer });
  }
  return checkCheckout(checked);
}
