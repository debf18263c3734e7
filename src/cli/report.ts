/**
 * How a command's failure is shown: a skillctl error with its code (and the exit status of that
 * code), anything else as an internal error. Shared by the full CLI and the fast paths, which must
 * print the same bytes.
 */
import { CODES, type Code } from '../core/diagnostics.js';
import { InternalError, isSkillctlError } from '../core/errors.js';
import type { CliCode } from './codes.js';
import type { Context } from './context.js';
import { EXIT } from './exit.js';
import { renderJson } from './render/json.js';
import { visible } from '../core/visible.js';

export function errorDoc(code: Code | CliCode, message: string, hint?: string): string {
  return renderJson({ error: { code, message, ...(hint !== undefined ? { hint } : {}) } });
}

/** Reports `err` on the context's streams and returns the exit status. */
export function report(ctx: Context, err: unknown): number {
  if (isSkillctlError(err)) {
    if (ctx.opts.json) ctx.out(errorDoc(err.code, err.message, err.hint).trimEnd());
    // The message may quote a registry's or a server's answer, or a file name.
    else ctx.error(`${ctx.style.red('error')} ${err.code}: ${visible(err.message)}${err.hint !== undefined ? `\n  hint: ${visible(err.hint)}` : ''}`);
    return EXIT[CODES[err.code].exit];
  }
  const message = err instanceof Error ? err.message : String(err);
  if (ctx.opts.json) ctx.out(errorDoc('INTERNAL', message, 'this is a bug in skillctl; run again with --debug for details').trimEnd());
  else ctx.error(`${ctx.style.red('internal error')}: ${visible(message)} (this is a bug; run again with --debug for details)`);
  if (ctx.opts.debug) ctx.error(err instanceof Error ? (err.stack ?? message) : message);
  if (ctx.opts.debug && err instanceof InternalError && err.cause !== undefined) ctx.error(`cause: ${visible(String(err.cause))}`);
  return EXIT.findings;
}
