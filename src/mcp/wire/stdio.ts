/**
 * MCP over stdio, one JSON-RPC message a line, in place of the SDK's StdioServerTransport, which
 * drops a line it cannot parse without an answer and ends the session on a line over its bound.
 * Here every line is classified (inbound.ts): a broken one is answered with its JSON-RPC error and
 * the session goes on. A line longer than the bound is not buffered past it: it is answered once
 * with -32600 and skipped up to its newline, so memory stays bounded and the client learns why.
 *
 * The end of the session: a client may write its last requests and close our stdin at once
 * (`printf '…' | skillctl mcp`); closing on stdin's end would drop the replies still being
 * computed. So requests are counted in and replies out, and the transport closes once stdin has
 * ended and every request has had its reply (or was cancelled).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter, type LineSink } from '../../core/line-splitter.js';
import { errorResponse, RPC } from './errors.js';
import { admit } from './inbound.js';
import { stringifyMessage } from './raw-json.js';

/** The longest message accepted: the SDK's own stdio bound. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  readonly #in: Readable;
  readonly #out: Writable;
  readonly #max: number;
  readonly #splitter: LineSplitter;
  readonly #sink: LineSink = { line: (bytes) => this.#line(bytes), tooLong: () => this.#tooLong() };
  /** Requests passed on and not yet answered, by id (an id may be in flight twice). */
  readonly #pending = new Map<RequestId, number>();
  #ended = false;
  #closed = false;
  /** Resolves when the output drains; set while a write is waiting for it. */
  #drained: Promise<void> | undefined;

  constructor(stdin: Readable, stdout: Writable, maxMessageBytes = MAX_MESSAGE_BYTES) {
    this.#in = stdin;
    this.#out = stdout;
    this.#max = maxMessageBytes;
    this.#splitter = new LineSplitter(maxMessageBytes);
  }

  readonly #ondata = (chunk: Buffer): void => this.#splitter.push(chunk, this.#sink);

  readonly #onend = (): void => {
    // The last message may end without a newline.
    this.#splitter.end(this.#sink);
    this.#ended = true;
    this.#maybeClose();
  };

  readonly #onerror = (err: Error): void => this.onerror?.(err);

  #tooLong(): void {
    this.#write(errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: a message is limited to ${this.#max} bytes; this one was skipped up to its end of line`));
  }

  #line(line: Buffer): void {
    const r = admit(line);
    if ('reply' in r) {
      this.#write(r.reply);
      return;
    }
    if ('ignore' in r) return;
    const m = r.message;
    if ('method' in m && 'id' in m) this.#pending.set(m.id, (this.#pending.get(m.id) ?? 0) + 1);
    // A cancelled request gets no reply (MCP), so it is no longer awaited.
    if ('method' in m && !('id' in m) && m.method === 'notifications/cancelled') {
      const id = (m.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.#settle(id);
    }
    this.onmessage?.(m);
  }

  #settle(id: RequestId): void {
    const n = this.#pending.get(id);
    if (n === undefined) return;
    if (n <= 1) this.#pending.delete(id);
    else this.#pending.set(id, n - 1);
    this.#maybeClose();
  }

  #maybeClose(): void {
    if (this.#ended && this.#pending.size === 0) void this.close();
  }

  #write(message: JSONRPCMessage): Promise<void> {
    if (this.#out.write(`${stringifyMessage(message)}\n`)) return Promise.resolve();
    // One wait for the stream to drain, shared by every reply written meanwhile: a listener each
    // would pass the stream's limit of 10 (a warning on stderr) when a host has many reads in
    // flight and reads its answers slowly.
    this.#drained ??= new Promise<void>((resolve) =>
      this.#out.once('drain', () => {
        this.#drained = undefined;
        resolve();
      }),
    );
    return this.#drained;
  }

  start(): Promise<void> {
    this.#in.on('data', this.#ondata);
    this.#in.on('end', this.#onend);
    this.#in.on('error', this.#onerror);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#write(message);
    if (!('method' in message) && 'id' in message && message.id !== null && message.id !== undefined) this.#settle(message.id);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#in.off('data', this.#ondata);
    this.#in.off('end', this.#onend);
    this.#in.off('error', this.#onerror);
    this.#in.pause();
    this.onclose?.();
    return Promise.resolve();
  }
}
