/**
 * `skillctl skill`: the command agents call most, so the path for a built-in pack imports only
 * the renderer and the embedded packs. The YAML parser (for --packs DIR and the guarded JSON
 * request parser of --stdin) is loaded only when those options are used.
 */
import { diag } from '../../../core/diagnostics.js';
import { BUILTIN_PACKS } from '../../../core/behaviour-packs/builtin.js';
import type { Pack } from '../../../core/behaviour-packs/index.js';
import { renderRequest } from '../../../core/behaviour-packs/request.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { loadOperatorPacks } from '../../operator-packs.js';
import { readStdin } from '../../io.js';
import { fail } from '../../render/failure.js';
import { renderPackOutput, renderPackWarnings } from '../../render/skill.js';
import { checkRequestSource, requestFromFlags, type SkillOptions } from './options.js';

export async function run(ctx: Context, opts: SkillOptions): Promise<number> {
  checkRequestSource(opts);
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
  if (result.diagnostics.length > 0) ctx.note(renderPackWarnings(result.diagnostics, ctx.style));
  ctx.io.stdout.write(renderPackOutput(rendered, ctx.opts.json));
  return EXIT.ok;
}
