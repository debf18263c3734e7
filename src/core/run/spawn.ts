/**
 * Runs one process with bounds: a wall-clock budget after which its whole process group is
 * killed, an output budget after which it is stopped, and stdin fed from memory. The process
 * leads its own process group (setsid), so killing the group takes its children with it; and the
 * group is killed when the process exits too, so nothing it started in the background survives.
 */
import { errnoCode } from '../errors.js';

export interface SpawnSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: Uint8Array;
  readonly timeoutMs: number;
  /** stdout beyond this stops the process; stderr beyond it is dropped. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

export interface SpawnOutcome {
  /** Set when the process could not be started at all (ENOENT, EACCES). */
  readonly spawnError?: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** The last 4 KiB of stderr, kept even when stderr was truncated (for diagnosis). */
  readonly stderrTail: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly timedOut: boolean;
  /** stdout passed maxOutputBytes and the process was stopped. */
  readonly outputLimit: boolean;
}

const TAIL = 4096;
/** After the process exits, how long stragglers that escaped the group may hold its pipes open. */
const DRAIN_MS = 500;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (err) {
    if (errnoCode(err) !== 'ESRCH') throw err;
  }
}

class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  tail = Buffer.alloc(0);
  constructor(private readonly limit: number) {}
  /** Adds a chunk; returns false once the limit is passed. */
  add(chunk: Buffer): boolean {
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-TAIL);
    const room = this.limit - this.size;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.truncated = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export function spawnBounded(spec: SpawnSpec): Promise<SpawnOutcome> {
  // Loaded on first use: a run of a built-in skill never starts a process.
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    const [file, ...args] = spec.argv as [string, ...string[]];
    const out = new Capture(spec.maxOutputBytes);
    const err = new Capture(spec.maxOutputBytes);
    let timedOut = false;
    let outputLimit = false;
    let settled = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const child = spawn(file, args, { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      spec.signal?.removeEventListener('abort', onAbort);
      killGroup(child.pid);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        ...(spawnError !== undefined ? { spawnError } : {}),
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: out.bytes(),
        stderr: err.bytes(),
        stderrTail: err.tail.toString('utf8'),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        timedOut,
        outputLimit,
      });
    };
    const onAbort = (): void => {
      timedOut = true;
      killGroup(child.pid);
    };
    const timer = setTimeout(onAbort, spec.timeoutMs);
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => finish(errnoCode(e) ?? e.message));
    child.stdout.on('data', (chunk: Buffer) => {
      if (outputLimit) return;
      if (!out.add(chunk)) {
        outputLimit = true;
        killGroup(child.pid);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => void err.add(chunk));
    // A process that never reads stdin closes it: that is its business, not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(spec.stdin));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Stragglers in the group are killed now; one that left the group (setsid) may still hold
      // the pipes, so stop waiting for them after a short drain.
      killGroup(child.pid);
      drainTimer = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());
  });
}
