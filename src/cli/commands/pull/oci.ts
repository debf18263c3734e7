/**
 * `skillctl pull oci://…`: one core call (pullSkill), then the folder written, or the findings.
 * Also the entry point of the plain pull's fast path (fastCli, see src/entry/pull-argv.ts).
 */
import { isAbsolute, join, relative } from 'node:path';
import { parseOciReference, pullSkill } from '../../../core/oci/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { blobCache, transportOptions, trustedKeys } from '../../oci-env.js';
import { projectPaths } from '../../project.js';
import { pullJson, renderPull } from '../../render/oci.js';
import { beforeLayerTransfer } from '../../streaming-heap.js';
import { fastCommand } from '../../../entry/plain-command.js';
import type { PlainPull } from '../../../entry/pull-argv.js';
import type { PullOptions } from './options.js';

export async function run(ctx: Context, reference: string, opts: PullOptions): Promise<number> {
  const ref = parseOciReference(reference);
  const cwd = ctx.io.cwd;
  const keys = await trustedKeys(ctx.io, opts);
  const { root } = await projectPaths(cwd, undefined);
  const result = await pullSkill({
    ref,
    transport: await transportOptions(ctx.io, opts),
    cache: blobCache(ctx.io),
    root,
    ...(opts.out !== undefined ? { outDir: isAbsolute(opts.out) ? opts.out : join(cwd, opts.out) } : {}),
    ...(opts.force === true ? { force: true } : {}),
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    ...(keys !== undefined ? { keys } : {}),
    beforeTransfer: beforeLayerTransfer,
  });
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  ctx.out(ctx.opts.json ? pullJson(result, show) : renderPull(result, { style: ctx.style, quiet: ctx.opts.quiet, label: reference, show }));
  return exitCodeFor(result);
}

/** Entry point for dist/boot.cjs: runs a plain `pull oci://REF [--out DIR]` without the CLI framework (src/entry/plain-command.ts). */
export function fastCli(plain: PlainPull): void {
  fastCommand(plain, (ctx) => run(ctx, plain.reference, plain.out !== undefined ? { out: plain.out } : {}));
}
