/**
 * Between a transport and the SDK's Server: what the SDK lets through that JSON-RPC and MCP do not.
 * - A request before `initialize` (other than `ping`) is refused with -32600: the session has no
 *   negotiated protocol yet, and the SDK would serve it.
 * - A request whose params do not have the form its method requires gets -32602 with one sentence
 *   naming the field; the SDK answers -32603 with zod's issue list as multi-line JSON.
 * - `tools/call` of a tool that checks its own arguments (the `skill` tool, whose seed makes
 *   "arguments not an object" its INVALID_INPUT) reaches that tool with whatever arguments came.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeIssue } from './describe.js';
import { errorResponse, RPC } from './errors.js';

/** What the gate needs to know of the server behind it. */
export interface GateRules {
  /** The request schema of each method the server handles (params checked against it). */
  readonly schemas: ReadonlyMap<string, z.ZodType>;
  /** A tool that takes its arguments as they came, answered here when they are not an object. */
  rawToolCall?(name: string, args: unknown): Promise<CallToolResult> | undefined;
}

const BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

export class GatedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  #initialized = false;

  constructor(
    private readonly inner: Transport,
    private readonly rules: GateRules,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
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
    const schema = this.rules.schemas.get(req.method);
    if (schema !== undefined) {
      const parsed = schema.safeParse(req);
      if (!parsed.success) return refuse(RPC.INVALID_PARAMS, `Invalid params: ${req.method}: ${describeIssue(parsed.error, req)}`);
    }
    if (req.method === 'initialize') this.#initialized = true;
    return undefined;
  }
}
