/**
 * `skillctl verify-pins --staged` and `--rev REV`: the same verification as on the working tree,
 * on the tree being committed or a commit's tree, read from git objects (./git-tree.ts). The lock,
 * its keys file and every pinned file come from that tree; the working tree is never read, so a
 * hook checks exactly what git will record, whatever is on disk.
 */
import { isAbsolute, join, posix } from 'node:path';
import { hasErrors, sortDiagnostics } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { checkAgainstBase, DEFAULT_LOCK_PATH, LOCK_MAX_BYTES, loadLock, lockRoot, openLock, verifyLock, type LockVerification, type SkillctlLockContext } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { progressLine } from '../../progress.js';
import { renderUnverifiable, renderVerification, type VerifyPinsRenderOptions } from '../../render/verify-pins.js';
import { explainChanges } from './explain.js';
import { openTree, projectRootIn, type OpenedTree, type TreeChoice } from './git-tree.js';
import { withRemoteFindings } from './remote-step.js';
import type { VerifyPinsOptions } from './options.js';

/** The lock's bytes from the tree; read as a file is (LOCK_UNREADABLE when absent). */
async function lockBytes(opened: OpenedTree, path: string, label: string): Promise<Buffer> {
  const where = opened.label === 'index' ? 'the index' : `commit ${opened.label}`;
  const r = await opened.ops.readBounded(path, { maxBytes: LOCK_MAX_BYTES });
  if (r.ok) return r.bytes;
  const absent = r.reason === 'missing';
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

async function verifyTree(ctx: Context, opts: VerifyPinsOptions, opened: OpenedTree): Promise<number> {
  // Paths in the tree hang from the top of the work tree; the working directory is its place there.
  const cwd = join(opened.top, ...opened.prefix.split('/').filter((p) => p !== ''));
  let root: string;
  let lockPath: string;
  let lockFile: string;
  let bytes: Buffer;
  if (opts.lock !== undefined && opts.lock !== '-') {
    lockPath = isAbsolute(opts.lock) ? opts.lock : join(cwd, opts.lock);
    root = lockRoot(lockPath);
    lockFile = opts.lock;
    bytes = await lockBytes(opened, lockPath, lockFile);
  } else {
    root = await projectRootIn(opened);
    lockPath = join(root, ...DEFAULT_LOCK_PATH.split('/'));
    if (opts.lock === '-') {
      const read = await readStdin(ctx.io, LOCK_MAX_BYTES);
      if (read === undefined) throw new SkillctlError('LOCK_UNREADABLE', `stdin exceeds the ${LOCK_MAX_BYTES}-byte bound for a lock`);
      bytes = read;
      lockFile = '-';
    } else {
      lockFile = root === cwd ? DEFAULT_LOCK_PATH : lockPath;
      bytes = await lockBytes(opened, lockPath, lockFile);
    }
  }
  const view: VerifyPinsRenderOptions = { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, lockFile, tree: opened.label };
  const lock = await openLock(lockPath, {
    label: lockFile,
    bytes,
    root,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    ops: opened.ops,
  });
  if (lock.context === undefined) {
    ctx.out(renderUnverifiable(lock.diagnostics, view));
    return exitCodeFor(lock);
  }
  const p = progressLine(ctx, opened.label === 'index' ? 'verifying pins in the index' : `verifying pins in commit ${opened.label.slice(0, 12)}`);
  let result: LockVerification;
  try {
    result = await verifyLock(lock.context, { onProgress: p.tick, committed: true });
  } finally {
    p.end();
  }
  if (!result.ok) {
    const base = await opened.loadBase();
    const rootInTree = posix.relative(opened.top, root);
    const what = opened.label === 'index' ? `in the index since ${opened.baseLabel}` : `by commit ${opened.label.slice(0, 12)}`;
    if (base !== undefined && !rootInTree.startsWith('..')) result = explainChanges(result, { tree: opened.tree, base, rootInTree, what });
  }
  if (opts.base !== undefined && lock.context.format === 'skillctl') result = await againstBase(ctx, opts.base, lock.context, lockPath, result);
  result = await withRemoteFindings(ctx, opts, lock.context, lockFile, result);
  const text = renderVerification(result, view);
  if (text !== '') ctx.out(text);
  return exitCodeFor(result);
}

/**
 * `--base REV`: the lock compared with the lock at the same place in REV's tree. A base without
 * a skillctl lock there has nothing to compare with (the change brings the first lock).
 */
async function againstBase(ctx: Context, rev: string, lock: SkillctlLockContext, lockPath: string, result: LockVerification): Promise<LockVerification> {
  const base = await openTree(ctx.io.cwd, ctx.io.env, { rev });
  try {
    const read = await base.ops.readBounded(lockPath, { maxBytes: LOCK_MAX_BYTES });
    if (!read.ok && read.reason === 'missing') return result;
    if (!read.ok) throw new SkillctlError('LOCK_UNREADABLE', `cannot read the lock file ${lock.lockFile} of --base ${rev}: ${read.reason}`);
    const loaded = loadLock(read.bytes, `${lock.lockFile} (${rev})`).loaded;
    if (loaded?.format !== 'skillctl') return result;
    const found = checkAgainstBase(lock.lock, loaded.lock, lock.lockFile, `${rev} (${base.label.slice(0, 12)})`);
    return found.length === 0 ? result : { ...result, ok: result.ok && !hasErrors(found), diagnostics: sortDiagnostics([...result.diagnostics, ...found]) };
  } finally {
    base.close();
  }
}
