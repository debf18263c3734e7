import type { Readable, Writable } from 'node:stream';

/** Everything a command may touch of its process, passed in so commands can run in tests. */
export interface CliIO {
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The real process. The streams are getters: touching process.stdin or process.stdout builds a
 * stream (and loads tty/net), which costs start-up time for commands that never read stdin.
 */
export function processIO(): CliIO {
  const cwd = process.cwd();
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd,
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
