/**
 * The fast paths of the commands that hooks, editors and agents run again and again: a plain
 * `skillctl validate PATH...` (validate-argv.ts) and a plain `skillctl pull oci://REF`
 * (pull-argv.ts), whose repeat by digest is answered from the cache. dist/boot.cjs takes them
 * without loading the CLI (commander and every command's definition) and runs the command body
 * with the same context and the same error report as the full CLI, so both print the same bytes.
 */
import { colorEnabled, loadStyle, makeContext, type Context, type GlobalOptions } from '../cli/context.js';
import { EXIT } from '../cli/exit.js';
import { processIO, type CliIO } from '../cli/io.js';
import { report } from '../cli/report.js';

/** The global flags a fast path takes: --json, --quiet/-q, --no-color. */
export interface PlainGlobals {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly noColor: boolean;
}

/** Runs `body` as the full CLI would run the command, and returns the exit status. */
export async function runPlainCommand(globals: PlainGlobals, io: CliIO, body: (ctx: Context) => Promise<number>): Promise<number> {
  // As the full CLI derives them from commander's options (`--no-color` makes `color` false).
  const opts: GlobalOptions = { json: globals.json, color: !globals.json && colorEnabled(io, !globals.noColor), quiet: globals.quiet, debug: false };
  const ctx = makeContext(io, opts, await loadStyle(opts.color));
  try {
    return await body(ctx);
  } catch (err) {
    return report(ctx, err);
  }
}

/** A fast path's entry point (called by dist/boot.cjs through its chunk): `body` on the process's own streams, its status the exit status. */
export function fastCommand(globals: PlainGlobals, body: (ctx: Context) => Promise<number>): void {
  runPlainCommand(globals, processIO(), body).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = EXIT.findings;
    },
  );
}
