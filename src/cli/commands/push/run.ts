/** `skillctl push SOURCE oci://…`: one core call (pushSkill), then the reference with its digest, or the findings. */
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { SkillctlError } from '../../../core/errors.js';
import { parseOciReference, pushSkill } from '../../../core/oci/index.js';
import { readSecretKey, SIGNER_ID, type SecretKey } from '../../../core/sign/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { transportOptions } from '../../oci-env.js';
import { pushJson, renderPush } from '../../render/oci.js';
import { keepYoungGenerationSmall } from '../../streaming-heap.js';
import type { PushOptions } from './options.js';

export async function run(ctx: Context, source: string, reference: string, opts: PushOptions): Promise<number> {
  const ref = parseOciReference(reference);
  if (ref.digest !== undefined) throw new SkillctlError('OCI_REFERENCE_INVALID', `${reference}: push takes a tag, not a digest (the digest is what push prints)`);
  if ((opts.sign === undefined) !== (opts.signer === undefined)) throw new SkillctlError('USAGE', '--sign and --signer go together');
  let sign: { key: SecretKey; signer: string } | undefined;
  if (opts.sign !== undefined && opts.signer !== undefined) {
    if (!SIGNER_ID.test(opts.signer)) throw new SkillctlError('SIGNER_ID_INVALID', `signer id ${JSON.stringify(opts.signer)} is not 1-128 letters, digits, dot, underscore or hyphen (nor __proto__, constructor or prototype)`);
    const read = await readSecretKey(isAbsolute(opts.sign) ? opts.sign : join(ctx.io.cwd, opts.sign), opts.sign);
    if (read.key === undefined) throw new SkillctlError('SECRET_KEY_INVALID', read.diagnostics[0]?.message ?? `${opts.sign} is not a secret key`);
    sign = { key: read.key, signer: opts.signer };
  }
  // A push reads its whole archive (hashed, sent and checked): see streaming-heap.ts.
  keepYoungGenerationSmall();
  const result = await pushSkill({
    source: isAbsolute(source) ? source : join(ctx.io.cwd, source),
    label: source,
    ref,
    transport: await transportOptions(ctx.io, opts),
    tmpDir: tmpdir(),
    ...(opts.chunkMib !== undefined ? { chunkBytes: opts.chunkMib * 1024 * 1024 } : {}),
    ...(sign !== undefined ? { sign } : {}),
  });
  ctx.out(ctx.opts.json ? pushJson(result) : renderPush(result, { style: ctx.style, quiet: ctx.opts.quiet, label: source }));
  return exitCodeFor(result);
}
