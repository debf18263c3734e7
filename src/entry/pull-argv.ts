/**
 * Which `skillctl pull` invocations take the fast path (src/entry/plain-command.ts): `pull`, one
 * `oci://` reference, and at most `--out DIR` (or `--out=DIR`) besides the global flags --json,
 * --quiet/-q and --no-color. A pull by digest already cached and in place (what setup scripts and
 * agents repeat) then costs little more than starting skillctl. dist/boot.cjs asks this small
 * bundle (dist/pull-argv.cjs) before loading anything else; whatever it declines (any other
 * option, help, a skill:// URI, two references, `--`) goes to the full CLI, which also gives every
 * usage error.
 */
import type { PlainGlobals } from './plain-command.js';

export interface PlainPull extends PlainGlobals {
  readonly reference: string;
  readonly out?: string;
}

/** The reference and flags of a plain `pull oci://…`, or undefined when the full CLI must parse it. */
export function plainPull(argv: readonly string[]): PlainPull | undefined {
  if (argv[0] !== 'pull') return undefined;
  let reference: string | undefined;
  let out: string | undefined;
  let json = false;
  let quiet = false;
  let noColor = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--quiet' || arg === '-q') quiet = true;
    else if (arg === '--no-color') noColor = true;
    else if (arg === '--out' || arg.startsWith('--out=')) {
      // Given twice, or with no value (or a value that looks like an option): commander's to judge.
      const value = arg === '--out' ? argv[++i] : arg.slice('--out='.length);
      if (out !== undefined || value === undefined || value === '' || value.startsWith('-')) return undefined;
      out = value;
    } else if (arg.startsWith('oci://') && reference === undefined) reference = arg;
    else return undefined;
  }
  if (reference === undefined) return undefined;
  return { reference, ...(out !== undefined ? { out } : {}), json, quiet, noColor };
}
