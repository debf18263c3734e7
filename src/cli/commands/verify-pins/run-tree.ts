/**
 * `skillctl verify-pins --staged` and `--rev REV`: the same verification as on the working tree,
 * on the tree being committed or a commit's tree, read from git objects (./git-tree.ts). The lock,
 * its keys file and every pinned file come from that tree; the working tree is never read, so a
 * hook checks exactly what git will record, whatever is on disk.
 */
import { isAbsolute, join, posix } from 'node:path';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { checkLockAgainstBase, DEFAULT_LOCK_PATH, type LockKeys, LOCK_MAX_BYTES, lockKeys, lockRoot, openLock, verifyLock, type LoadedLock, type LockContext, type LockVerification } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { progressLine } from '../../progress.js';
import { renderUnverifiable, renderVerification, type VerifyPinsRenderOptions } from '../../render/verify-pins.js';
import { loadBaseLock } from './base-lock.js';
import { checkoutFindings } from './checkout-step.js';
import { explainChanges } from './explain.js';
import { openTree, projectRootIn, type OpenedTree, type TreeChoice } from './git-tree.js';
import { withRemoteFindings } from './remote-step.js';
import type { VerifyPinsOptions } from './options.js';

/**
 * The lock's bytes from the tree; read as a file is (LOCK_UNREADABLE when it cannot be). Undefined
 * when it is not there and `missingOk`: a base's lock deleted by the change is a finding.
 */
async function lockBytes(opened: OpenedTree, path: string, label: string, missingOk = false): Promise<Buffer | undefined> {
  const where = opened.label === 'index' ? 'the index' : `commit ${opened.label.slice(0, 12)}`;
  const r = await opened.ops.readBounded(path, { maxBytes: LOCK_MAX_BYTES });
  if (r.ok) return r.bytes;
  const absent = r.reason === 'missing';
  if (absent && missingOk) return undefined;
  const why = absent ? 'it is not there' : r.reason === 'too-large' ? `it exceeds ${LOCK_MAX_BYTES} bytes` : r.reason === 'not-regular' ? `it is a ${r.kind}` : r.errno;
  throw new SkillctlError('LOCK_UNREADABLE', `cannot read the lock file ${label} from ${where}: ${why}`, {
    ...(absent ? { hint: opened.label === 'index' ? 'stage it with git add, or name another with --lock' : 'name another with --lock' } : {}),
  });
}

export async function runTree(ctx: Context, opts: VerifyPinsOptions, choice: TreeChoice): Promise<number> {
  const opened = await openTree(ctx.io.cwd, ctx.io.env, choice);
  try {
    return await verifyTree(ctx, opts, opened);
  } finally {
    opened.close();
  }
}

/** Where the lock is in the tree, how it is named, and the project root it pins. */
async function lockPlace(cwd: string, opts: VerifyPinsOptions, opened: OpenedTree): Promise<{ root: string; lockPath: string; lockFile: string }> {
  if (opts.lock !== undefined && opts.lock !== '-') {
    const lockPath = isAbsolute(opts.lock) ? opts.lock : join(cwd, opts.lock);
    return { root: lockRoot(lockPath), lockPath, lockFile: opts.lock };
  }
  const root = await projectRootIn(opened);
  const lockPath = join(root, ...DEFAULT_LOCK_PATH.split('/'));
  return { root, lockPath, lockFile: opts.lock === '-' ? '-' : root === cwd ? DEFAULT_LOCK_PATH : lockPath };
}

/** The lock as loaded, for the comparison with the base's. */
function loadedOf(c: LockContext): LoadedLock {
  return c.format === 'skillctl' ? { format: 'skillctl', lock: c.lock } : { format: 'provenact', lock: c.lock };
}

/** `result` with `found` added. */
function adding(result: LockVerification, found: readonly Diagnostic[]): LockVerification {
  return found.length === 0 ? result : { ...result, ok: result.ok && !hasErrors(found), diagnostics: sortDiagnostics([...result.diagnostics, ...found]) };
}

async function verifyTree(ctx: Context, opts: VerifyPinsOptions, opened: OpenedTree): Promise<number> {
  // Paths in the tree hang from the top of the work tree; the working directory is its place there.
  const cwd = join(opened.top, ...opened.prefix.split('/').filter((p) => p !== ''));
  const { root, lockPath, lockFile } = await lockPlace(cwd, opts, opened);
  // --base: REV's lock, read first, whatever the lock being verified turns out to be.
  const base = opts.base !== undefined ? await loadBaseLock(ctx, opts.base, lockPath, lockFile) : undefined;
  const againstBase = (head: LoadedLock | undefined, keys?: LockKeys): Diagnostic[] => (base?.loaded !== undefined ? checkLockAgainstBase(head, base.loaded, lockFile, base.label, keys) : []);
  const view: VerifyPinsRenderOptions = { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, lockFile, tree: opened.label };
  let bytes: Buffer | undefined;
  if (opts.lock === '-') {
    bytes = await readStdin(ctx.io, LOCK_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('LOCK_UNREADABLE', `stdin exceeds the ${LOCK_MAX_BYTES}-byte bound for a lock`);
  } else {
    bytes = await lockBytes(opened, lockPath, lockFile, base?.loaded !== undefined);
  }
  if (bytes === undefined) {
    // The change deleted the lock the base verifies with.
    const found = againstBase(undefined);
    ctx.out(renderUnverifiable(found, view));
    return exitCodeFor({ ok: false, diagnostics: found });
  }
  const lock = await openLock(lockPath, {
    label: lockFile,
    bytes,
    root,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    ops: opened.ops,
  });
  if (lock.context === undefined) {
    const found = sortDiagnostics([...lock.diagnostics, ...againstBase(undefined)]);
    ctx.out(renderUnverifiable(found, view));
    return exitCodeFor({ ok: false, diagnostics: found });
  }
  const p = progressLine(ctx, opened.label === 'index' ? 'verifying pins in the index' : `verifying pins in commit ${opened.label.slice(0, 12)}`);
  let result: LockVerification;
  try {
    result = await verifyLock(lock.context, { onProgress: p.tick, committed: true });
  } finally {
    p.end();
  }
  if (!result.ok) {
    const parent = await opened.loadBase();
    const rootInTree = posix.relative(opened.top, root);
    const what = opened.label === 'index' ? `in the index since ${opened.baseLabel}` : `by commit ${opened.label.slice(0, 12)}`;
    if (parent !== undefined && !rootInTree.startsWith('..')) result = explainChanges(result, { tree: opened.tree, base: parent, rootInTree, what });
  }
  // What git hashes is not always what a checkout writes: .gitattributes can route a pinned file through a filter.
  result = adding(result, await checkoutFindings(opened, lock.context, root, opts.lock === '-' ? undefined : lockPath));
  result = adding(result, againstBase(loadedOf(lock.context), lockKeys(lock.context, result)));
  result = await withRemoteFindings(ctx, opts, lock.context, lockFile, result);
  const text = renderVerification(result, view);
  if (text !== '') ctx.out(text);
  return exitCodeFor(result);
}
