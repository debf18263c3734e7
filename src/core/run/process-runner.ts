/**
 * The one way skillctl runs a program: argv only (never a shell), in its own process group, with
 * a wall-clock budget, bounded capture of stdout and stderr, and stdin fed from memory. When the
 * budget runs out, the run is cancelled, stdout passes its bound (when asked to stop there) or
 * the program exits, the whole group is killed: nothing it started keeps running in the
 * background. Process runtimes (node, python, shell, container) and the programs built-in skills
 * start (shell.exec_safe, git, rg) all go through here.
 */
import { errnoCode } from '../errors.js';
import { closeInheritedFds } from './inherited-fds.js';

export interface SpawnSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Fed to the child's stdin; without it, stdin is /dev/null. */
  readonly stdin?: Uint8Array;
  readonly timeoutMs: number;
  /** Bytes of stdout kept; see `stopAtLimit`. */
  readonly maxStdout: number;
  /** Bytes of stderr kept; the rest is read and dropped. */
  readonly maxStderr: number;
  /** Stop the program when stdout passes maxStdout (an entrypoint's output bound); else drop the rest. */
  readonly stopAtLimit?: boolean;
  readonly signal?: AbortSignal;
  /** Called with each stdout chunk; returning true stops the program (the caller has enough). */
  readonly onStdout?: (chunk: Buffer) => boolean;
  /** Told the child's pid once it runs, and told again (with `exited`) when it ended. */
  readonly track?: (pid: number, exited: boolean) => void;
  /**
   * Descriptors the child gets from 3 on: one of this process, as it is, bytes it reads from a
   * pipe, or none (undefined) (the egress files and the grants bubblewrap mounts, sandbox.ts).
   */
  readonly fds?: readonly (number | Uint8Array | undefined)[];
}

export interface SpawnOutcome {
  /** Why the program could not start (ENOENT, EACCES...), when it could not. */
  readonly spawnError?: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** The last 4 KiB of stderr, kept even when stderr was truncated (for diagnosis). */
  readonly stderrTail: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  /** The run's signal was aborted. */
  readonly aborted: boolean;
  /** stdout passed maxStdout and the program was stopped (`stopAtLimit`). */
  readonly outputLimit: boolean;
  /** `onStdout` asked to stop. */
  readonly stopped: boolean;
  readonly durationMs: number;
}

const TAIL = 4096;
/** After the program exits, how long stragglers that left its group may hold its pipes open. */
const DRAIN_MS = 500;

/** Kills a process group; false when there was none left. */
export function killGroup(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch (err) {
    if (errnoCode(err) !== 'ESRCH' && errnoCode(err) !== 'EPERM') throw err;
    return false;
  }
}

class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  tail = Buffer.alloc(0);
  constructor(
    private readonly max: number,
    private readonly keepTail: boolean,
  ) {}
  /** Adds a chunk; returns false once the bound is passed. */
  push(chunk: Buffer): boolean {
    if (this.keepTail) this.tail = Buffer.concat([this.tail, chunk]).subarray(-TAIL);
    const room = this.max - this.kept;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.kept = this.max;
      this.truncated = true;
      return false;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    return true;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export function spawnBounded(spec: SpawnSpec): Promise<SpawnOutcome> {
  // Loaded on first use: most runs of the default bundle start no process.
  const { spawn } = process.getBuiltinModule('node:child_process');
  // Before the first program: a descriptor skillctl inherited would reach it, and through
  // bubblewrap the skill (inherited-fds.ts).
  closeInheritedFds();
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const [file, ...args] = spec.argv as [string, ...string[]];
    const out = new Capture(spec.maxStdout, false);
    const err = new Capture(spec.maxStderr, true);
    let timedOut = false;
    let aborted = false;
    let outputLimit = false;
    let stopped = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
    let drain: NodeJS.Timeout | undefined;

    const child = spawn(file, args, {
      cwd: spec.cwd,
      env: { ...spec.env },
      shell: false,
      detached: true, // its own process group, so the group can be killed as one
      stdio: [spec.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(spec.fds ?? []).map((fd) => (fd === undefined ? 'ignore' : typeof fd === 'number' ? fd : 'pipe'))],
      windowsHide: true,
    });
    // Both are pipes (stdio above); the types cannot tell.
    const stdout = child.stdout as NodeJS.ReadableStream & { destroy(): void };
    const stderr = child.stderr as NodeJS.ReadableStream & { destroy(): void };
    if (child.pid !== undefined) spec.track?.(child.pid, false);
    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      spec.signal?.removeEventListener('abort', onAbort);
      killGroup(child.pid);
      if (child.pid !== undefined) spec.track?.(child.pid, true);
      stdout.destroy();
      stderr.destroy();
      resolve({
        ...(spawnError !== undefined ? { spawnError } : {}),
        exitCode: exit.code,
        signal: exit.signal,
        stdout: out.bytes(),
        stderr: err.bytes(),
        stderrTail: err.tail.toString('utf8'),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        timedOut,
        aborted,
        outputLimit,
        stopped,
        durationMs: Math.max(0, Math.round(Number(process.hrtime.bigint() - started) / 1e6)),
      });
    };
    const onAbort = (): void => {
      aborted = true;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeoutMs);
    if (spec.signal?.aborted === true) onAbort();
    else spec.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    stdout.on('data', (chunk: Buffer) => {
      if (outputLimit) return;
      if (!out.push(chunk) && spec.stopAtLimit === true) {
        outputLimit = true;
        killGroup(child.pid);
      }
      if (!stopped && spec.onStdout?.(chunk) === true) {
        stopped = true;
        killGroup(child.pid);
      }
    });
    stderr.on('data', (chunk: Buffer) => void err.push(chunk));
    (spec.fds ?? []).forEach((fd, i) => {
      const pipe = child.stdio[3 + i];
      if (fd === undefined || typeof fd === 'number' || pipe === null || pipe === undefined || !('end' in pipe)) return;
      // Read whole by the program, or not at all (bubblewrap failed first): not an error either way.
      pipe.on('error', () => undefined);
      pipe.end(Buffer.from(fd));
    });
    if (child.stdin !== null) {
      // A process that never reads stdin closes it: that is its business, not an error.
      child.stdin.on('error', () => undefined);
      child.stdin.end(Buffer.from(spec.stdin ?? new Uint8Array()));
    }
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Anything the program left running in its group goes with it; one that left the group
      // (setsid) may still hold the pipes, so stop waiting for them after a short drain.
      killGroup(child.pid);
      drain = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());
  });
}
