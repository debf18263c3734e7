/**
 * Runs a program the policy allowed, argv only (no shell), in its own process group, with a
 * wall-clock budget and bounded capture of stdout and stderr. When the budget runs out, the run
 * is cancelled, or the program exits, the whole group is killed: nothing the program started
 * keeps running in the background.
 */
import { spawn } from 'node:child_process';

export interface SpawnOptions {
  readonly cwd: string;
  /** The complete environment of the child; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Bytes of stdout and of stderr kept; the rest is read and dropped. */
  readonly maxStdout: number;
  readonly maxStderr: number;
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** Called with each stdout chunk; returning true stops the program (the caller has enough). */
  readonly onStdout?: (chunk: Buffer) => boolean;
}

export interface SpawnResult {
  /** Why the program could not start (ENOENT, EACCES...), when it could not. */
  readonly spawnError?: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** True when `onStdout` asked to stop. */
  readonly stopped: boolean;
  readonly durationMs: number;
}

/** How long to wait for inherited pipes to close after the group was killed. */
const DRAIN_GRACE_MS = 2000;

class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export function spawnBounded(file: string, args: readonly string[], opts: SpawnOptions): Promise<SpawnResult> {
  const started = opts.now();
  const out = new Capture(opts.maxStdout);
  const err = new Capture(opts.maxStderr);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let stopped = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    const child = spawn(file, [...args], {
      cwd: opts.cwd,
      env: { ...opts.env },
      shell: false,
      detached: true, // its own process group, so the group can be killed as one
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      opts.signal.removeEventListener('abort', onAbort);
      resolve({
        ...(spawnError !== undefined ? { spawnError } : {}),
        exitCode: exit.code,
        signal: exit.signal,
        stdout: out.bytes(),
        stderr: err.bytes(),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        timedOut,
        aborted,
        stopped,
        durationMs: Math.max(0, Math.round(opts.now() - started)),
      });
    };
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    let grace: ReturnType<typeof setTimeout> | undefined;
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (!stopped && opts.onStdout?.(chunk) === true) {
        stopped = true;
        killGroup();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Anything the program left running in its group goes with it.
      killGroup();
      // A descendant that escaped the group may hold the pipes open: stop waiting for it.
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, DRAIN_GRACE_MS);
    });
    child.on('close', () => finish());
  });
}
