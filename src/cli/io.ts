import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** Everything a command may touch of its process, passed in so commands can run in tests. */
export interface CliIO {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Writes results to stdout without building a stream, when the process's own fd 1 is used. */
  readonly writeOut?: (text: string) => void;
  /** Whether stdout is a terminal, answered without building the stream when it can be. */
  readonly stdoutIsTTY?: () => boolean;
}

let stdoutStream = false;
let guarded = false;

/** process.stdout, with a closed pipe (`skillctl ... | head`) treated as the reader's choice. */
function guardedStdout(): NodeJS.WriteStream {
  if (!guarded) {
    guarded = true;
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    });
  }
  return process.stdout;
}

/**
 * Writes to fd 1 directly: touching process.stdout builds a stream (and, for a pipe, loads the
 * net module), which costs more than most commands' work. A non-blocking pipe that is full hands
 * the rest, and everything after it, to process.stdout, so output stays in order. A reader that
 * closed the pipe (`skillctl ... | head -1`) made its choice: that is not an error.
 */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  if (stdoutStream) {
    guardedStdout().write(bytes);
    return;
  }
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw err;
    stdoutStream = true;
    guardedStdout().write(bytes.subarray(offset));
  }
}

/**
 * Whether fd 1 is a terminal. Asking process.stdout builds a stream (and loads the stream
 * modules), which costs more than validating a manifest; a file, a pipe, a socket or /dev/null
 * (hyperfine, cron, `>/dev/null`) is told apart from its fstat. Only another character device
 * needs the stream's own answer, and that is a terminal session, where nobody counts milliseconds.
 */
function stdoutIsTerminal(): boolean {
  let rdev: number;
  try {
    const st = fstatSync(1);
    if (!st.isCharacterDevice()) return false;
    rdev = st.rdev;
  } catch {
    return false;
  }
  try {
    if (rdev === statSync('/dev/null').rdev) return false;
  } catch {
    // No /dev/null to compare with: the stream answers.
  }
  return process.stdout.isTTY === true;
}

/**
 * The real process. The streams are getters: touching process.stdin or process.stdout builds a
 * stream (and loads tty/net), which costs start-up time for commands that never read stdin.
 */
export function processIO(): CliIO {
  const cwd = process.cwd();
  return {
    get stdout() {
      // A command that streams to stdout itself: later results must follow its bytes.
      stdoutStream = true;
      return guardedStdout();
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd,
    writeOut: writeStdout,
    stdoutIsTTY: stdoutIsTerminal,
  };
}

/** Reads stdin up to `limit` bytes; returns undefined when it is larger (the caller reports it). */
export async function readStdin(io: CliIO, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) {
      io.stdin.destroy();
      return undefined;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
