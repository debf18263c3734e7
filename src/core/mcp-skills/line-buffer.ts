/**
 * The read buffer of the SDK's stdio client transport, in linear time. The SDK's own (1.32)
 * joins each piece the pipe delivers to everything it holds (`Buffer.concat`) and searches the
 * whole for a newline again: a message near a pull's bound (32 MiB) arrives in 64 KiB pieces,
 * and reading it cost 34 s of CPU and 600 MB. A hostile server held a pull 40 s per such answer
 * before MCP_PULL_FILE_TOO_LARGE; an honest skill's 20 MiB file took as long to arrive. Here the
 * lines are cut by the LineSplitter the `mcp` server's own transport uses.
 */
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InternalError } from '../errors.js';
import { LineSplitter, type LineSink } from '../line-splitter.js';

/** What the transport asks of its buffer. */
interface ReadBufferLike {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

export class LineReadBuffer implements ReadBufferLike {
  readonly #max: number;
  readonly #splitter: LineSplitter;
  /** Lines ended and not yet read. */
  #lines: Buffer[] = [];
  readonly #sink: LineSink = {
    line: (bytes) => this.#lines.push(bytes),
    tooLong: () => {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.#max} bytes`);
    },
  };

  constructor(maxMessageBytes: number) {
    this.#max = maxMessageBytes;
    this.#splitter = new LineSplitter(maxMessageBytes);
  }

  /** Throws past the bound, as the SDK's does (its message, which the connection recognises), holding nothing. */
  append(chunk: Buffer): void {
    this.#splitter.push(chunk, this.#sink);
  }

  /** The next whole message, or null; throws for a line that is not one (the transport reports it and reads on). */
  readMessage(): JSONRPCMessage | null {
    const line = this.#lines.shift();
    return line === undefined ? null : deserializeMessage(line.toString('utf8'));
  }

  clear(): void {
    this.#splitter.clear();
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
