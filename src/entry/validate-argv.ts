/**
 * Which `skillctl validate` invocations the fast path takes (src/entry/plain-command.ts): `validate`
 * followed by paths and the global flags --json, --quiet/-q and --no-color. dist/boot.cjs asks
 * this small bundle (dist/validate-argv.cjs) before loading anything else, so a command the fast
 * path declines (a command option, help, stdin, `--`, a global option before the command name)
 * loads nothing it does not use.
 */
export interface PlainValidate {
  readonly paths: readonly string[];
  readonly json: boolean;
  readonly quiet: boolean;
  readonly noColor: boolean;
}

/** The paths and flags of a plain `validate` invocation, or undefined when the full CLI must parse it. */
export function plainValidate(argv: readonly string[]): PlainValidate | undefined {
  if (argv[0] !== 'validate') return undefined;
  const paths: string[] = [];
  let json = false;
  let quiet = false;
  let noColor = false;
  for (const arg of argv.slice(1)) {
    if (arg === '--json') json = true;
    else if (arg === '--quiet' || arg === '-q') quiet = true;
    else if (arg === '--no-color') noColor = true;
    else if (arg === '' || arg.startsWith('-')) return undefined;
    else paths.push(arg);
  }
  return { paths, json, quiet, noColor };
}
