/**
 * Whether `skillctl run ...` is a plain run of a bundle directory or of a shipped built-in, read
 * before anything else loads (dist/run-argv.cjs, a couple of kilobytes, asked by dist/boot.cjs on
 * every `run`). Only then does boot.cjs load src/entry/wasm-early.ts (to look for a wasm skill in
 * the directory) or src/entry/builtin-early.ts (to start the built-in's thread), each a guess the
 * run later takes or stops. A command line this does not read plainly gets neither.
 */
import { resolve } from 'node:path';
import { BUILTIN_IDS } from '../skills/ids.js';

export interface WasmRunTarget {
  /** The bundle directory, absolute. */
  readonly dir: string;
  /** --entrypoint, when given. */
  readonly entrypoint?: string;
}

export interface BuiltinRunTarget {
  /** The id of a skill of the default bundle (src/skills/ids.ts). */
  readonly skillId: string;
  /** --entrypoint, when given. */
  readonly entrypoint?: string;
}

export type EarlyRunTarget = WasmRunTarget | BuiltinRunTarget;

/** `run`'s options that take a value (src/cli/commands/run/index.ts), and the flags, the global ones included. */
const VALUED = new Set(['--entrypoint', '--input', '--policy', '--sandbox', '--retries', '--audit', '--contracts']);
const FLAGS = new Set(['--no-audit', '--check-determinism', '--json', '--no-color', '-q', '--quiet', '--debug']);

/** The target of a plain `run <directory>` or `run <built-in id>`, with its --entrypoint; else undefined. */
export function earlyRunTarget(argv: readonly string[]): EarlyRunTarget | undefined {
  if (argv[0] !== 'run') return undefined;
  let target: string | undefined;
  let entrypoint: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (VALUED.has(arg)) {
      const value = argv[++i];
      if (value === undefined) return undefined;
      if (arg === '--entrypoint') entrypoint = value;
    } else if (!FLAGS.has(arg)) {
      if (arg === '' || arg.startsWith('-') || target !== undefined) return undefined;
      target = arg;
    }
  }
  if (target === undefined) return undefined;
  const ep = entrypoint !== undefined ? { entrypoint } : {};
  if (BUILTIN_IDS.has(target)) return { skillId: target, ...ep };
  // A directory as the run reads one (src/core/run/resolve.ts, isPathTarget): not a skill id, an archive or an OCI reference.
  if (!(target.includes('/') || target.startsWith('.')) || target.endsWith('.tgz') || target.startsWith('oci://')) return undefined;
  return { dir: resolve(target), ...ep };
}
