/**
 * The fast path of `skillctl skill`, the command agents call most often. dist/boot.cjs tries it
 * before loading the CLI (commander, chalk, every command's definition), so a plain request for a
 * built-in pack costs little more than starting Node.
 *
 * It handles only the common successful case: `skill` with --profile/-p, --max-chars, --json,
 * --quiet and --no-color, a valid request, and nothing to say on stderr. For anything else (help,
 * --stdin, --packs, --debug, an unknown option, an invalid request, a clamped budget in human mode)
 * it returns false and the full CLI runs instead: errors are only ever reported by the full command,
 * and success output comes from the same renderers, so both paths print the same bytes.
 */
import { BUILTIN_PACKS } from '../core/behaviour-packs/builtin.js';
import { renderRequest } from '../core/behaviour-packs/request.js';
import { renderPackOutput } from '../cli/render/skill.js';
import { writeStdout } from '../cli/io.js';

interface Parsed {
  json: boolean;
  quiet: boolean;
  profile?: string;
  maxChars?: string;
}

const VALUED: Readonly<Record<string, 'profile' | 'maxChars'>> = { '--profile': 'profile', '-p': 'profile', '--max-chars': 'maxChars' };

/** The options of a plain `skill` invocation, or undefined when the full CLI must parse it. */
function parse(argv: readonly string[]): Parsed | undefined {
  const out: Parsed = { json: false, quiet: false };
  let command = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    // Global options may come before or after the command name, as commander allows.
    if (arg === '--json') out.json = true;
    else if (arg === '--quiet' || arg === '-q') out.quiet = true;
    else if (arg === '--no-color') continue; // nothing this path prints is coloured
    else if (arg === 'skill' && !command) command = true;
    else {
      // Command options only after the command name; each once; a value never taken from an option.
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const key = VALUED[eq > 0 ? arg.slice(0, eq) : arg];
      if (!command || key === undefined || out[key] !== undefined) return undefined;
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      out[key] = value;
    }
  }
  return command ? out : undefined;
}

/** Writes the pack and returns true, or returns false having written nothing. */
export function skillFast(argv: readonly string[], write: (s: string) => void): boolean {
  const opts = parse(argv);
  if (opts === undefined) return false;
  const input: Record<string, unknown> = {};
  if (opts.profile !== undefined) input.profile = opts.profile;
  if (opts.maxChars !== undefined) {
    if (!/^[0-9]+$/.test(opts.maxChars)) return false;
    input.max_chars = Number(opts.maxChars);
  }
  const result = renderRequest(input, BUILTIN_PACKS);
  const rendered = result.value;
  if (rendered === undefined) return false;
  // The full command notes warnings (a clamped budget) on stderr, coloured by terminal and environment.
  if (result.diagnostics.length > 0 && !opts.json && !opts.quiet) return false;
  write(renderPackOutput(rendered, opts.json));
  return true;
}

/** Entry point for dist/boot.cjs: true when the invocation (`argv`, without node and script) was handled here. */
export function fastCli(argv: readonly string[]): boolean {
  return skillFast(argv, writeStdout);
}
