/** `skillctl pull oci://…`: one core call (pullSkill), then the folder written, or the findings. */
import { isAbsolute, join, relative } from 'node:path';
import { SkillctlError } from '../../../core/errors.js';
import { readInputFile } from '../../../core/fs/index.js';
import { parseOciReference, pullSkill } from '../../../core/oci/index.js';
import { KEYS_MAX_BYTES, loadPublicKeys, type PublicKey } from '../../../core/sign/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { blobCache, transportOptions } from '../../oci-env.js';
import { projectPaths } from '../../project.js';
import { pullJson, renderPull } from '../../render/oci.js';
import type { PullOptions } from './options.js';

async function trustedKeys(ctx: Context, opts: PullOptions): Promise<ReadonlyMap<string, PublicKey> | undefined> {
  if ((opts.minSigners ?? 0) === 0) return undefined;
  if (opts.keys === undefined) throw new SkillctlError('USAGE', '--min-signers needs --keys FILE, the public keys it trusts');
  const bytes = await readInputFile(isAbsolute(opts.keys) ? opts.keys : join(ctx.io.cwd, opts.keys), opts.keys, { maxBytes: KEYS_MAX_BYTES });
  const loaded = loadPublicKeys(bytes, opts.keys);
  if (loaded.diagnostics.length > 0) throw new SkillctlError('KEYS_INVALID', loaded.diagnostics[0]?.message ?? `${opts.keys} is not a keys file`);
  return loaded.keys;
}

export async function run(ctx: Context, reference: string, opts: PullOptions): Promise<number> {
  const ref = parseOciReference(reference);
  const cwd = ctx.io.cwd;
  const keys = await trustedKeys(ctx, opts);
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
  });
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  ctx.out(ctx.opts.json ? pullJson(result, show) : renderPull(result, { style: ctx.style, quiet: ctx.opts.quiet, label: reference, show }));
  return exitCodeFor(result);
}
