/**
 * The skillctl command line: global options, command registration, error-to-exit-code mapping.
 * Commands live in commands/<name>/: index.ts registers the command and lazily imports run.ts
 * (its own chunk, src/entry/chunks.mjs), which maps the options (options.ts) to a core call, renders
 * the result (render/<name>.ts) and returns an exit code.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../generated/version.js';
import { COMMANDS } from './commands/index.js';
import { colorEnabled, loadStyle, makeContext, type Context, type GlobalOptions } from './context.js';
import { EXIT } from './exit.js';
import { processIO, type CliIO } from './io.js';
import { renderJson } from './render/json.js';
import { errorDoc, report } from './report.js';

const EXAMPLES = `
Examples:
  $ skillctl validate manifests               lint every skill under manifests/
  $ skillctl validate --json skill.yaml       machine-readable findings
  $ skillctl validate --fix my-skill          rewrite stale digests in place

Exit status: 0 ok, 1 findings, 2 usage or unreadable input, 3 denied by policy,
4 contract violated, 124 timed out. Docs: docs/README.md`;

/** The global options that take no value: with nothing else, no command was given. */
const GLOBAL_FLAGS: ReadonlySet<string> = new Set(['--json', '--no-color', '-q', '--quiet', '--debug']);

/** `--json --version` (schemas/cli/version.schema.json): the package and the Node.js that runs it. */
function versionDoc(): string {
  return renderJson({ name: 'skillctl', version: VERSION, node: process.version }).trimEnd();
}

/** Runs skillctl with `argv` (without node and script) and returns the exit status. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const wantsJson = argv.includes('--json');
  const program = new Command('skillctl');
  program
    .description('Lint, digest, pack, pin, verify and run agent skills under a host-enforced policy.')
    // Commander prints the version string as given: with --json, the one object every --json run prints.
    .version(wantsJson ? versionDoc() : VERSION, '-V, --version', 'print the version and exit')
    .option('--json', 'print one JSON document on stdout (errors included)')
    .option('--no-color', 'no colours (also: NO_COLOR=1)')
    .option('-q, --quiet', 'print only errors and results')
    .option('--debug', 'print stack traces for internal errors')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => {
        if (wantsJson) io.stdout.write(errorDoc('USAGE', s.replace(/^error: /, '').trim()));
        else write(s);
      },
    });

  const run = async (fn: (ctx: Context) => Promise<number>): Promise<void> => {
    const g = program.opts<{ json?: boolean; color?: boolean; quiet?: boolean; debug?: boolean }>();
    const opts: GlobalOptions = {
      json: g.json === true,
      color: !(g.json === true) && colorEnabled(io, g.color),
      quiet: g.quiet === true,
      debug: g.debug === true,
    };
    const ctx = makeContext(io, opts, await loadStyle(opts.color));
    try {
      exitCode = await fn(ctx);
    } catch (err) {
      exitCode = report(ctx, err);
    }
  };
  // An option given an empty value (`--registry ""`, an unset shell variable) would otherwise mean
  // "the working directory" to a path resolver, or fall back to a default: a usage error instead.
  program.hook('preAction', (_program, action) => {
    for (const option of action.options) {
      const value: unknown = action.getOptionValue(option.attributeName());
      const values = Array.isArray(value) ? (value as unknown[]) : [value];
      if (values.some((v) => typeof v === 'string' && v.trim() === '')) action.error(`error: option '${option.flags}' needs a non-empty value`, { code: 'skillctl.emptyOption' });
    }
  });
  for (const register of COMMANDS) register(program, run);
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError();
  }
  // No command is a usage error (docs/README.md): a script whose command word came out empty must
  // fail, not pass with the help on stderr.
  if (argv.every((a) => GLOBAL_FLAGS.has(a))) {
    if (wantsJson) io.stdout.write(errorDoc('USAGE', 'no command given', 'skillctl --help lists the commands'));
    else {
      program.outputHelp({ error: true });
      io.stderr.write('\nerror: no command given\n');
    }
    return EXIT.usage;
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    const ctx = makeContext(io, { json: wantsJson, color: false, quiet: false, debug: argv.includes('--debug') });
    return report(ctx, err);
  }
  return exitCode;
}

/** Entry point for dist/boot.cjs: `argv` without node and script. */
export function cli(argv: readonly string[]): void {
  main(argv, processIO()).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = EXIT.findings;
    },
  );
}
