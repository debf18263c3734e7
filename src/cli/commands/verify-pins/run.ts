import { join } from 'node:path';
import { hasErrors } from '../../../core/diagnostics.js';
import { syncDirOps } from '../../../core/bundle/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { DEFAULT_LOCK_PATH, findProjectRoot, LOCK_MAX_BYTES, openLock, readLockBytes, verifyLock, type LockVerification } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { progressLine } from '../../progress.js';
import { projectPaths } from '../../project.js';
import { startPool, threadsFor, type VerifyPool } from '../../verify-pins-threads.js';

/** The entry worker threads call (see ../verify-pins-threads.ts). */
export { workerMain } from '../../verify-pins-threads.js';
import { count, plural, renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import type { VerifyPinsOptions } from './options.js';

function json(lockFile: string, r: LockVerification): unknown {
  return {
    ok: r.ok,
    lock: lockFile,
    format: r.format,
    skills: r.skills.map((s) => ({
      ...('skill_id' in s.pin ? { skill_id: s.pin.skill_id, skill_version: s.pin.skill_version, source: s.pin.source } : { id: s.pin.id, version: s.pin.version, bundle_dir: s.pin.bundle_dir }),
      ok: s.ok,
      digests: s.digests,
      signers: s.signers,
    })),
    packs: r.packs.map((p) => ({ profile: p.pin.profile, skill_pack_version: p.pin.skill_pack_version, source: p.pin.source, ok: p.ok, digests: p.digests })),
    unpinned: r.unpinned,
    diagnostics: r.diagnostics,
  };
}

export async function run(ctx: Context, opts: VerifyPinsOptions): Promise<number> {
  const project = await projectPaths(ctx.io.cwd, opts.lock);
  let bytes: Buffer | undefined;
  let root = project.root;
  let lockFile = project.lockFile;
  if (opts.lock === '-') {
    bytes = await readStdin(ctx.io, LOCK_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('LOCK_UNREADABLE', `stdin exceeds the ${LOCK_MAX_BYTES}-byte bound for a lock`);
    root = (await findProjectRoot(ctx.io.cwd)) ?? ctx.io.cwd;
    lockFile = '-';
  } else {
    bytes = await readLockBytes(project.lockPath, lockFile);
  }
  // Keys files are found beside the lock; a lock from stdin is taken to be the project's.
  const lockPath = opts.lock === '-' ? join(root, ...DEFAULT_LOCK_PATH.split('/')) : project.lockPath;
  // SKILLCTL_THREADS caps the threads (1: none), for machines shared with other jobs.
  const cap = Number(ctx.io.env.SKILLCTL_THREADS ?? 4);
  const threads = threadsFor(Number.isInteger(cap) && cap > 0 ? cap : 4);
  // Workers (for a large lock) boot while this thread parses the lock.
  const pool = startPool(lockPath, bytes.length, threads);
  try {
    return await verifyWith(ctx, pool, lockPath, lockFile, bytes, root, opts);
  } finally {
    pool.close();
  }
}

async function verifyWith(ctx: Context, pool: VerifyPool, lockPath: string, lockFile: string, bytes: Buffer, root: string, opts: VerifyPinsOptions): Promise<number> {
  const opened = await openLock(lockPath, {
    label: lockFile,
    bytes,
    root,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    // A batch job with nothing else to do meanwhile: blocking calls cost a few microseconds where
    // thread-pool round trips cost tens (see src/core/bundle/dir-ops.ts).
    ops: syncDirOps,
  });
  if (opened.context === undefined) {
    const code = exitCodeFor(opened);
    if (ctx.opts.json) ctx.out(renderJson({ ok: false, lock: lockFile, format: null, skills: [], packs: [], unpinned: [], diagnostics: opened.diagnostics }).trimEnd());
    else ctx.out(`${renderGrouped(opened.diagnostics, { style: ctx.style })}\n${ctx.style.red('✖')} ${lockFile} cannot be verified`);
    return code;
  }
  const p = progressLine(ctx, 'verifying pins');
  let result: LockVerification;
  try {
    result = await verifyLock(opened.context, { onProgress: p.tick, verifySkills: pool.verifySkills });
  } finally {
    p.end();
  }
  if (ctx.opts.json) {
    ctx.out(renderJson(json(lockFile, result)).trimEnd());
  } else {
    const shown = ctx.opts.quiet ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
    if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
    const pins = result.skills.length + result.packs.length;
    const failed = result.skills.filter((s) => !s.ok).length + result.packs.filter((s) => !s.ok).length;
    const c = count(result.diagnostics);
    if (!hasErrors(result.diagnostics)) {
      if (!ctx.opts.quiet) ctx.out(`${ctx.style.green('✔')} ${plural(pins, 'pin')} verified (${plural(result.skills.length, 'skill')}, ${plural(result.packs.length, 'pack')}) in ${lockFile}`);
    } else {
      const parts = [`${failed} of ${plural(pins, 'pin')} failed`];
      if (result.unpinned.length > 0) parts.push(`${result.unpinned.length} unpinned`);
      ctx.out(`${ctx.style.red('✖')} ${lockFile}: ${parts.join(', ')}; ${plural(c.errors, 'error')}`);
    }
  }
  return exitCodeFor(result);
}
