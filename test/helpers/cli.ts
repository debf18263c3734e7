import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { checkCliJson, wantsJson } from './cli-json.js';
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
  /** Descriptors skillctl gets from 3 on, as an agent host that leaks them would hand them on (skillctlAsync only). */
  readonly fds?: readonly (number | 'ignore')[];
}

function cliEnv(opts: CliOptions): Record<string, string> {
  const merged: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...opts.env };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs the built `skillctl` binary as a user would: a separate process, no TTY. */
export function skillctl(args: readonly string[], opts: CliOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    env: cliEnv(opts),
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return checked(args, { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
}

/**
 * The run, once its JSON document (when the arguments ask for one) matched its schema under
 * schemas/cli/. A run killed by a signal (a test's timeout) printed what it had, and is left to the test.
 */
function checked(args: readonly string[], run: CliRun): CliRun {
  if (run.code !== -1 && wantsJson(args)) checkCliJson(args, run.stdout);
  return run;
}

/**
 * `skillctl` without blocking this process: for tests whose own event loop must keep running
 * while skillctl works (an HTTP server the skill fetches from).
 */
export function skillctlAsync(args: readonly string[], opts: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // 0-2 are pipes whatever follows them; the types cannot tell once the array is spread.
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: cliEnv(opts), stdio: ['pipe', 'pipe', 'pipe', ...(opts.fds ?? [])] }) as ChildProcessWithoutNullStreams;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(checked(args, { code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Parses stdout as the one JSON document of --json. */
export function json<T = unknown>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** The codes a `--json` run reports: its error's code, or its findings' codes (each once). */
export function codesOf(run: CliRun): string[] {
  const doc = json<{ error?: { code: string }; diagnostics?: { code: string }[] }>(run);
  return doc.error !== undefined ? [doc.error.code] : [...new Set((doc.diagnostics ?? []).map((d) => d.code))];
}
