/**
 * `skillctl verify-pins`: the lock (a file, or stdin) opened by the core and every pin verified,
 * on every core for a large lock (src/entry/pool.ts, ./share.ts), read-only.
 */
import { join } from 'node:path';
import { syncDirOps } from '../../../core/bundle/index.js';
import { SkillctlError } from '../../../core/errors.js';
import {
  DEFAULT_LOCK_PATH,
  LOCK_MAX_BYTES,
  openLock,
  readLockBytes,
  verifyLock,
  type LockVerification,
  type PinVerification,
  type SkillctlLockContext,
} from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { progressLine } from '../../progress.js';
import { noteRootRefusals, projectPaths } from '../../project.js';
import { EARLY_LOCK_BYTES, openPool, poolWorker as servePool, type Pool } from '../../../entry/pool.js';
import { renderUnverifiable, renderVerification, type VerifyPinsRenderOptions } from '../../render/verify-pins.js';
import type { VerifyPinsOptions } from './options.js';
import { withRemoteFindings } from './remote-step.js';
import { runTree } from './run-tree.js';
import { resultOf, servePins, verifyJob, verifyPinAt, type PinReply } from './share.js';

/** What the pool's worker threads run (src/entry/pool.ts). */
export const poolWorker = servePool(servePins);

export async function run(ctx: Context, opts: VerifyPinsOptions): Promise<number> {
  // As pin refuses it without an oci:// reference: an option that would be silently ignored.
  if (opts.timeout !== undefined && opts.remote !== true) throw new SkillctlError('USAGE', '--timeout bounds the checks of --remote, which is not given');
  if (opts.startServers === true && opts.remote !== true) throw new SkillctlError('USAGE', '--start-servers starts the servers --remote asks, which is not given');
  if (opts.privateOrigins === true && opts.remote !== true) throw new SkillctlError('USAGE', '--private-origins lets --remote contact private addresses, and --remote is not given');
  if (opts.mcpTokenFile !== undefined && opts.remote !== true) throw new SkillctlError('USAGE', '--mcp-token-file is sent to the servers --remote asks, and --remote is not given');
  if (opts.base !== undefined && opts.staged !== true && opts.rev === undefined) throw new SkillctlError('USAGE', '--base compares the lock of --staged or --rev with the base commit\'s, and neither is given');
  if (opts.staged === true) return runTree(ctx, opts, { staged: true });
  if (opts.rev !== undefined) return runTree(ctx, opts, { rev: opts.rev });
  const project = await projectPaths(ctx.io.cwd, opts.lock);
  noteRootRefusals(ctx, project.diagnostics);
  let bytes: Buffer | undefined;
  const root = project.root;
  let lockFile = project.lockFile;
  if (opts.lock === '-') {
    bytes = await readStdin(ctx.io, LOCK_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('LOCK_UNREADABLE', `stdin exceeds the ${LOCK_MAX_BYTES}-byte bound for a lock`);
    lockFile = '-';
  } else {
    bytes = await readLockBytes(project.lockPath, lockFile);
  }
  // Keys files are found beside the lock; a lock from stdin is taken to be the project's.
  const lockPath = opts.lock === '-' ? join(root, ...DEFAULT_LOCK_PATH.split('/')) : project.lockPath;
  // Workers (for a large lock) boot while this thread parses the lock, if dist/boot.cjs did not
  // start them even earlier (src/entry/early-pool.ts).
  const pool = openPool<PinReply>('verify-pins', ctx.io.env, { startNow: bytes.length >= EARLY_LOCK_BYTES });
  try {
    return await verifyWith(ctx, pool, lockPath, lockFile, bytes, root, opts);
  } finally {
    pool.close();
  }
}

async function verifyWith(ctx: Context, pool: Pool<PinReply>, lockPath: string, lockFile: string, bytes: Buffer, root: string, opts: VerifyPinsOptions): Promise<number> {
  const opened = await openLock(lockPath, {
    label: lockFile,
    bytes,
    root,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    // A batch job with nothing else to do meanwhile: blocking calls cost a few microseconds where
    // thread-pool round trips cost tens (see src/core/bundle/dir-ops.ts).
    ops: syncDirOps,
  });
  const view: VerifyPinsRenderOptions = { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, lockFile };
  if (opened.context === undefined) {
    ctx.out(renderUnverifiable(opened.diagnostics, view));
    return exitCodeFor(opened);
  }
  const p = progressLine(ctx, 'verifying pins');
  let result: LockVerification;
  try {
    const verifySkills = async (lock: SkillctlLockContext, tick: () => void): Promise<PinVerification[]> =>
      (await pool.run(lock.lock.skills.length, verifyPinAt(lock), verifyJob(lockPath, lock), tick)).map((r, i) => resultOf(lock.lock, i, r));
    result = await verifyLock(opened.context, { onProgress: p.tick, verifySkills });
  } finally {
    p.end();
  }
  result = await withRemoteFindings(ctx, opts, opened.context, lockFile, result);
  const text = renderVerification(result, view);
  if (text !== '') ctx.out(text);
  return exitCodeFor(result);
}
