/**
 * The read buffer of the SDK's stdio client transport, in linear time. The SDK's own (1.32)
 * joins each piece the pipe delivers to everything it holds (`Buffer.concat`) and searches the
 * whole for a newline again: a message near a pull's bound (32 MiB) arrives in 64 KiB pieces,
 * and reading it cost 34 s of CPU and 600 MB. A hostile server held a pull 40 s per such answer
 * before MCP_PULL_FILE_TOO_LARGE; an honest skill's 20 MiB file took as long to arrive. Here the
 * pieces of a line are kept as they come, each searched once, and joined once, when the line ends.
 */
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InternalError } from '../errors.js';

const NEWLINE = 0x0a;

/** What the transport asks of its buffer. */
interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

export class LineReadBuffer implements ReadBufferLike {
  readonly #max: number;
  /** The pieces of the line not yet ended, and their length. */
  #pieces: Buffer[] = [];
  #size = 0;
  /** Lines ended and not yet read. */
  #lines: Buffer[] = [];

  constructor(maxMessageBytes: number) {
    this.#max = maxMessageBytes;
  }

  /** Throws past the bound, as the SDK's does (its message, which the connection recognises), holding nothing. */
  append(chunk: Buffer): void {
    let rest = chunk;
    for (let nl = rest.indexOf(NEWLINE); nl >= 0; nl = rest.indexOf(NEWLINE)) {
      const part = rest.subarray(0, nl);
      this.#hold(part.length);
      this.#lines.push(Buffer.concat([...this.#pieces, part]));
      this.#pieces = [];
      this.#size = 0;
      rest = rest.subarray(nl + 1);
    }
    if (rest.length === 0) return;
    this.#hold(rest.length);
    // A copy: the stream may reuse the chunk's memory.
    this.#pieces.push(Buffer.from(rest));
    this.#size += rest.length;
  }

  #hold(more: number): void {
    if (this.#size + more <= this.#max) return;
    this.clear();
    throw new Error(`ReadBuffer exceeded maximum size of ${this.#max} bytes`);
  }

  /** The next whole message, or null; throws for a line that is not one (the transport reports it and reads on). */
  readMessage(): JSONRPCMessage | null {
    const line = this.#lines.shift();
    if (line === undefined) return null;
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    return deserializeMessage(line.toString('utf8', 0, end));
  }

  clear(): void {
    this.#pieces = [];
    this.#size = 0;
    this.#lines = [];
  }
}

/**
 * Gives `transport` a LineReadBuffer in place of the SDK's. The SDK keeps its buffer in a field
 * it does not export; if a release renames it, every pull fails here, loudly, rather than reading
 * in quadratic time again.
 */
export function withLinearReads(transport: StdioClientTransport, maxMessageBytes: number): StdioClientTransport {
  const fields = transport as unknown as { _readBuffer?: ReadBufferLike };
  if (fields._readBuffer === undefined || typeof fields._readBuffer.append !== 'function') {
    throw new InternalError("the MCP SDK's stdio client transport no longer keeps its read buffer in _readBuffer (src/core/mcp-skills/line-buffer.ts)");
  }
  fields._readBuffer = new LineReadBuffer(maxMessageBytes);
  return transport;
}
