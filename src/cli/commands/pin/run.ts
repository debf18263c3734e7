/** `skillctl pin [PATH...] [--all]`: the project's lock, one core call (pinPaths), the changes. */
import { DEFAULT_SKILL_ROOTS, pinPaths, type PulledOrigin } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { noteRootRefusals, processFileLock, projectPaths } from '../../project.js';
import { progressLine } from '../../progress.js';
import { pinJson, renderPin, renderSigned } from '../../render/pin.js';
import { checkScope, parseSkillRoots, signingKeys, type PinOptions } from './options.js';

export async function run(ctx: Context, paths: readonly string[], opts: PinOptions): Promise<number> {
  // oci:// references are pulled first (pull/oci.ts), then pinned here as the folders they wrote.
  if (paths.some((p) => p.startsWith('oci://'))) {
    const pulled = await (await import('./oci.js')).pullReferences(ctx, paths, opts);
    return typeof pulled === 'number' ? pulled : pinWith(ctx, pulled.paths, opts, pulled.origins);
  }
  return pinWith(ctx, paths, opts);
}

/** Pins `paths`, recording `origins` (by source) on their pins. */
async function pinWith(ctx: Context, paths: readonly string[], opts: PinOptions, origins?: ReadonlyMap<string, PulledOrigin>): Promise<number> {
  checkScope(paths, opts);
  const keys = signingKeys(opts);
  const skillRoots = parseSkillRoots(opts.skillRoots, DEFAULT_SKILL_ROOTS);
  const project = await projectPaths(ctx.io.cwd, opts.lock);
  noteRootRefusals(ctx, project.diagnostics);
  // On a terminal only, as verify-pins: `pin --all` over thousands of bundles takes seconds.
  const progress = progressLine(ctx, 'pinning');
  const outcome = await pinPaths({
    root: project.root,
    cwd: ctx.io.cwd,
    paths,
    all: opts.all === true,
    lockPath: project.lockPath,
    lockFile: project.lockFile,
    keys,
    replace: opts.replace === true,
    trustKeys: opts.trustKeys === true,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    ...(skillRoots !== undefined ? { skillRoots } : {}),
    ...(origins !== undefined ? { origins } : {}),
    fileLock: processFileLock(),
    onProgress: progress.tick,
  }).finally(progress.end);
  if (ctx.opts.json) {
    ctx.out(pinJson(outcome, project.lockFile));
  } else {
    const signed = renderSigned(outcome);
    if (signed !== '') ctx.note(signed);
    ctx.out(renderPin(outcome, project.lockFile, { style: ctx.style, quiet: ctx.opts.quiet }));
  }
  return exitCodeFor(outcome);
}
