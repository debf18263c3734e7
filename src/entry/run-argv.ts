/**
 * Whether `skillctl run ...` may be a run of a bundle directory, read before anything else loads
 * (dist/run-argv.cjs, a few hundred bytes, asked by dist/boot.cjs on every `run`): only then does
 * boot.cjs load src/entry/wasm-early.ts to look for a wasm skill there. A built-in's run pays for
 * this small bundle alone.
 */
import { resolve } from 'node:path';

export interface WasmRunTarget {
  /** The bundle directory, absolute. */
  readonly dir: string;
  /** --entrypoint, when given. */
  readonly entrypoint?: string;
}

/** `run`'s options that take a value (src/cli/commands/run/index.ts), and the flags, the global ones included. */
const VALUED = new Set(['--entrypoint', '--input', '--policy', '--sandbox', '--retries', '--audit', '--contracts']);
const FLAGS = new Set(['--no-audit', '--check-determinism', '--json', '--no-color', '-q', '--quiet', '--debug']);

/** The bundle directory (absolute) and --entrypoint of a plain `run <directory>`, else undefined. */
export function wasmRunTarget(argv: readonly string[]): WasmRunTarget | undefined {
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
  // A directory as the run reads one (src/core/run/resolve.ts, isPathTarget): not a skill id, an archive or an OCI reference.
  if (target === undefined || !(target.includes('/') || target.startsWith('.')) || target.endsWith('.tgz') || target.startsWith('oci://')) return undefined;
  return { dir: resolve(target), ...(entrypoint !== undefined ? { entrypoint } : {}) };
}

