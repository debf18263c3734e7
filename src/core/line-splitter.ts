/**
 * A byte stream cut into lines of bounded length, as JSON-RPC over stdio sends one message a line
 * (the `mcp` server's transport and a `pull skill://` from a stdio server both read one). Each
 * piece the pipe delivers is searched for a newline once, and a line's pieces are joined once, when
 * it ends: joining every piece to all that is held and searching the whole again (the MCP SDK's
 * own buffer) costs the square of a line's length, 34 s of CPU for a 32 MiB message.
 */

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Where the lines go. */
export interface LineSink {
  /** A whole line, without its newline and a carriage return before it. */
  line(bytes: Buffer): void;
  /** A line passed the bound: called once, and its bytes up to its newline are dropped. */
  tooLong(): void;
}

export class LineSplitter {
  readonly #max: number;
  /** The pieces of the line not yet ended, and their length. */
  #pieces: Buffer[] = [];
  #size = 0;
  /** Inside a line past the bound. */
  #skipping = false;

  constructor(maxLineBytes: number) {
    this.#max = maxLineBytes;
  }

  push(chunk: Buffer, sink: LineSink): void {
    let rest = chunk;
    for (let nl = rest.indexOf(NEWLINE); nl >= 0; nl = rest.indexOf(NEWLINE)) {
      const part = rest.subarray(0, nl);
      rest = rest.subarray(nl + 1);
      if (this.#skipping) this.#skipping = false;
      else if (this.#size + part.length > this.#max) this.#overflow(sink, false);
      else sink.line(withoutCr(this.#take(part)));
    }
    if (this.#skipping || rest.length === 0) return;
    if (this.#size + rest.length > this.#max) {
      this.#overflow(sink, true);
      return;
    }
    // A copy: the stream may reuse the chunk's memory.
    this.#pieces.push(Buffer.from(rest));
    this.#size += rest.length;
  }

  /** The stream ended: a last line without a newline is a line too. */
  end(sink: LineSink): void {
    if (!this.#skipping && this.#pieces.length > 0) sink.line(withoutCr(this.#take(Buffer.alloc(0))));
    this.clear();
  }

  clear(): void {
    this.#pieces = [];
    this.#size = 0;
    this.#skipping = false;
  }

  #take(last: Buffer): Buffer {
    const line = this.#pieces.length === 0 ? last : Buffer.concat([...this.#pieces, last]);
    this.#pieces = [];
    this.#size = 0;
    return line;
  }

  #overflow(sink: LineSink, unended: boolean): void {
    this.#pieces = [];
    this.#size = 0;
    this.#skipping = unended;
    sink.tooLong();
  }
}

function withoutCr(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line;
}
