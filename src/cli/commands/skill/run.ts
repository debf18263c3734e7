/**
 * `skillctl skill`: the command agents call most, so the path for a built-in pack imports only
 * the renderer and the embedded packs. The YAML parser (for --packs DIR and the guarded JSON
 * request parser of --stdin) is loaded only when those options are used.
 */
import { diag } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { BUILTIN_PACKS } from '../../../core/behaviour-packs/builtin.js';
import type { Pack } from '../../../core/behaviour-packs/model.js';
import { renderRequest } from '../../../core/behaviour-packs/request.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { loadOperatorPacks } from '../../operator-packs.js';
import { readStdin } from '../../io.js';
import { fail } from '../../render/failure.js';
import { renderPackOutput } from '../../render/pack.js';
import type { SkillOptions } from './options.js';

/** The request from --profile and --max-chars, in the same shape as a --stdin request. */
function requestFromFlags(opts: SkillOptions): Record<string, unknown> {
  const req: Record<string, unknown> = {};
  if (opts.profile !== undefined) req.profile = opts.profile;
  if (opts.maxChars !== undefined) {
    // Only a plain decimal integer becomes a number; anything else stays text and is refused
    // by checkPackRequest with the same message as a bad JSON value.
    req.max_chars = /^[+-]?[0-9]+$/.test(opts.maxChars.trim()) ? Number(opts.maxChars.trim()) : opts.maxChars;
  }
  return req;
}

export async function run(ctx: Context, opts: SkillOptions): Promise<number> {
  if (opts.stdin === true && (opts.profile !== undefined || opts.maxChars !== undefined)) {
    throw new SkillctlError('USAGE', '--stdin reads profile and max_chars from the request; do not also give --profile or --max-chars');
  }
  const label = opts.stdin === true ? '-' : '(command line)';
  let packs: readonly Pack[] = BUILTIN_PACKS;
  if (opts.packs !== undefined) {
    const loaded = await loadOperatorPacks(ctx, opts.packs);
    if (!('catalogue' in loaded)) return fail(ctx, loaded.diagnostics);
    packs = loaded.catalogue;
  }

  let input: unknown = requestFromFlags(opts);
  if (opts.stdin === true) {
    const { parsePackRequest, PACK_REQUEST_MAX_BYTES } = await import('../../../core/behaviour-packs/request-json.js');
    const bytes = await readStdin(ctx.io, PACK_REQUEST_MAX_BYTES);
    if (bytes === undefined) {
      return fail(ctx, [diag('INVALID_INPUT', `the request on stdin exceeds ${PACK_REQUEST_MAX_BYTES} bytes`, { file: label, pointer: '' })]);
    }
    const parsed = parsePackRequest(bytes);
    if (!parsed.ok) return fail(ctx, parsed.diagnostics.map((d) => ({ ...d, file: label })));
    input = parsed.value;
  }
  const result = renderRequest(input, packs);
  const rendered = result.value;
  if (rendered === undefined) return fail(ctx, result.diagnostics.map((d) => ({ ...d, file: label })));
  for (const w of result.diagnostics) ctx.note(`${ctx.style.yellow(w.severity)} ${w.code}: ${w.message}`);
  ctx.io.stdout.write(renderPackOutput(rendered, ctx.opts.json));
  return EXIT.ok;
}
