import { spawnSync } from 'node:child_process';
import { BIN, ROOT } from './paths.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly input?: string | Buffer;
  readonly env?: Record<string, string | undefined>;
  readonly timeoutMs?: number;
}

/** Runs the built `skillctl` binary as a user would: a separate process, no TTY. */
export function skillctl(args: readonly string[], opts: CliOptions = {}): CliRun {
  const merged: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...opts.env };
  const env = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    env,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Parses stdout as the one JSON document of --json. */
export function json<T = unknown>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}
