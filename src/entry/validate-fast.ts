/**
 * The fast path of `skillctl validate PATH...`, which CI hooks and editors run on every change.
 * dist/boot.cjs takes it, without loading the CLI (commander and every command's definition),
 * for the invocations validate-argv.ts accepts, and runs the command body with the same context
 * and the same error report as the full CLI, so both print the same bytes.
 */
import { colorEnabled, loadStyle, makeContext, type Context, type GlobalOptions } from '../cli/context.js';
import type { CliIO } from '../cli/io.js';
import { report } from '../cli/report.js';
import type { PlainValidate } from './validate-argv.js';

/** Runs `body` as the full CLI would run the validate command, and returns the exit status. */
export async function runPlainValidate(
  parsed: PlainValidate,
  io: CliIO,
  body: (ctx: Context, paths: readonly string[]) => Promise<number>,
): Promise<number> {
  // As the full CLI derives them from commander's options (`--no-color` makes `color` false).
  const opts: GlobalOptions = { json: parsed.json, color: !parsed.json && colorEnabled(io, !parsed.noColor), quiet: parsed.quiet, debug: false };
  const ctx = makeContext(io, opts, await loadStyle(opts.color));
  try {
    return await body(ctx, parsed.paths);
  } catch (err) {
    return report(ctx, err);
  }
}
