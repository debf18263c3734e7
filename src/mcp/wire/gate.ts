/**
 * Between a transport and the SDK's Server: what the SDK lets through that JSON-RPC and MCP do not.
 * - A request before `initialize` (other than `ping`) is refused with -32600: the session has no
 *   negotiated protocol yet, and the SDK would serve it.
 * - A request whose params do not have the form its method requires gets -32602 with one sentence
 *   naming the field; the SDK answers -32603 with zod's issue list as multi-line JSON.
 * - `tools/call` of a tool that checks its own arguments (the `skill` tool, whose seed makes
 *   "arguments not an object" its INVALID_INPUT) reaches that tool with whatever arguments came.
 * - A request the server answers directly (`direct`: a host reads a skill of 1,000 files with
 *   1,000 `resources/read`) is answered here, past the SDK's dispatch (a zod parse of the request
 *   again, an abort controller, a chain of promises), with the answer the SDK would give: the
 *   result, or the handler's error as `{code, message, data?}`, nothing once cancelled.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeIssue } from './describe.js';
import { errorResponse, RPC } from './errors.js';

/** What the gate needs to know of the server behind it. */
export interface GateRules {
  /** The request schema of each method the server handles (params checked against it). */
  readonly schemas: ReadonlyMap<string, z.ZodType>;
  /** A tool that takes its arguments as they came, answered here when they are not an object. */
  rawToolCall?(name: string, args: unknown): Promise<CallToolResult> | undefined;
  /**
   * The answer to a request the server handles without the SDK, or undefined to let the SDK
   * handle it. It must take only params that its method's schema accepts as they are.
   */
  direct?(method: string, params: Record<string, unknown> | undefined): Promise<object> | undefined;
}

/** The JSON-RPC error of what a handler threw, as the SDK's Protocol makes it. */
function thrownError(id: RequestId, err: unknown): JSONRPCMessage {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : RPC.INTERNAL_ERROR;
  const message = typeof e.message === 'string' ? e.message : 'Internal error';
  return { jsonrpc: '2.0', id, error: { code, message, ...(e.data !== undefined ? { data: e.data } : {}) } };
}

const BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

export class GatedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  #initialized = false;
  /**
   * Requests answered here, not yet replied to, by id (an id may be in flight twice): a
   * cancelled one gets no reply, as MCP asks.
   */
  readonly #direct = new Map<RequestId, { cancelled: boolean }[]>();

  constructor(
    private readonly inner: Transport,
    private readonly rules: GateRules,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if ('method' in message && !('id' in message) && message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) for (const t of this.#direct.get(id) ?? []) t.cancelled = true;
      }
      const refused = 'method' in message && 'id' in message ? this.#check(message) : undefined;
      if (refused === undefined) this.onmessage?.(message, extra);
    };
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Answers a request the server must not see, and says so; undefined lets it through. */
  #check(req: JSONRPCRequest): true | undefined {
    const refuse = (code: number, message: string): true => {
      void this.inner.send(errorResponse(req.id, code, message)).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
      return true;
    };
    if (!this.#initialized && !BEFORE_INITIALIZE.has(req.method)) {
      return refuse(RPC.INVALID_REQUEST, `Invalid Request: ${req.method} before initialize; the session starts with an initialize request`);
    }
    if (req.method === 'tools/call' && this.rules.rawToolCall !== undefined) {
      const params = req.params as Record<string, unknown> | undefined;
      const args = params?.arguments;
      if (typeof params?.name === 'string' && args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
        const answered = this.rules.rawToolCall(params.name, args);
        if (answered !== undefined) {
          void answered.then((result) => this.inner.send({ jsonrpc: '2.0', id: req.id, result }));
          return true;
        }
      }
    }
    const answer = this.#initialized ? this.rules.direct?.(req.method, req.params) : undefined;
    if (answer !== undefined) {
      this.#answer(req.id, answer);
      return true;
    }
    const schema = this.rules.schemas.get(req.method);
    if (schema !== undefined) {
      const parsed = schema.safeParse(req);
      if (!parsed.success) return refuse(RPC.INVALID_PARAMS, `Invalid params: ${req.method}: ${describeIssue(parsed.error, req)}`);
    }
    if (req.method === 'initialize') this.#initialized = true;
    return undefined;
  }

  #answer(id: RequestId, answer: Promise<object>): void {
    const ticket = { cancelled: false };
    const tickets = this.#direct.get(id);
    if (tickets === undefined) this.#direct.set(id, [ticket]);
    else tickets.push(ticket);
    const reply = (message: JSONRPCMessage): Promise<void> | undefined => {
      const left = (this.#direct.get(id) ?? []).filter((t) => t !== ticket);
      if (left.length === 0) this.#direct.delete(id);
      else this.#direct.set(id, left);
      return ticket.cancelled ? undefined : this.inner.send(message);
    };
    answer
      .then(
        (result) => reply({ jsonrpc: '2.0', id, result: result as Record<string, unknown> }),
        (err: unknown) => reply(thrownError(id, err)),
      )
      .catch((err: unknown) => this.onerror?.(new Error(`Failed to send response: ${String(err)}`)));
  }
}
