import type { Diagnostic } from '../../core/diagnostics.js';
import { InternalError } from '../../core/errors.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

/**
 * A command that cannot produce its result: the diagnostics as the one JSON error document
 * (`--json`), or grouped on stderr. Returns the exit status they call for.
 */
export function fail(ctx: Context, diagnostics: readonly Diagnostic[]): number {
  const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0];
  if (first === undefined) throw new InternalError('a failure with no diagnostic');
  if (ctx.opts.json) {
    const error = { code: first.code, message: first.message, ...(first.hint !== undefined ? { hint: first.hint } : {}) };
    ctx.out(renderJson({ error, diagnostics }).trimEnd());
  } else {
    ctx.error(renderGrouped(diagnostics, { style: ctx.style }));
  }
  return exitCodeFor({ diagnostics });
}
