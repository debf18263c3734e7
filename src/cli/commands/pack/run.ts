/** `skillctl pack DIR`: one core call (packFolder), then the archives written or the findings. */
import { isAbsolute, join, relative } from 'node:path';
import { packFolder } from '../../../core/pack/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { progressLine } from '../../progress.js';
import { packJson, renderPack } from '../../render/pack.js';
import { packFormats, type PackOptions } from './options.js';

export async function run(ctx: Context, dir: string, opts: PackOptions): Promise<number> {
  const cwd = ctx.io.cwd;
  // On a terminal only, as verify-pins: a bundle of hundreds of megabytes takes seconds to compress.
  const progress = progressLine(ctx, 'packing, MB');
  const mb = (n: number): number => Math.round(n / 1e6);
  const result = await packFolder(isAbsolute(dir) ? dir : join(cwd, dir), opts.out === undefined ? cwd : isAbsolute(opts.out) ? opts.out : join(cwd, opts.out), {
    label: dir,
    outLabel: opts.out ?? 'the working directory',
    formats: packFormats(opts),
    ...(opts.strict === true ? { profile: 'strict' as const } : {}),
    ...(opts.force === true ? { force: true } : {}),
    onProgress: (done, total) => progress.tick(mb(done), mb(total)),
  }).finally(progress.end);
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  const text = ctx.opts.json ? packJson(result, show) : renderPack(result, { style: ctx.style, quiet: ctx.opts.quiet, show, label: dir });
  if (text !== '') ctx.out(text);
  return exitCodeFor(result);
}
