/**
 * `skillctl mcp` spoken to on the wire: raw lines on its stdin, every message it writes on stdout
 * parsed and kept, so a test can send what no MCP client would (broken JSON, batches, answers to
 * nothing, 10 MB lines) and still wait for the answer to a request by its id.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { HANG_GUARD_MS } from './hostile.js';
import { BIN } from './paths.js';

/** A JSON-RPC message as the server wrote it. */
export interface Message {
  readonly jsonrpc?: string;
  readonly id?: unknown;
  readonly method?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** The code of a tool call's error result (`isError`, `{error: {code}}`); fails when the call did not fail. */
export function toolErrorCode(m: Message): string {
  const r = m.result as { isError?: boolean; content: { text: string }[] } | undefined;
  assert.equal(r?.isError, true, JSON.stringify(m).slice(0, 800));
  return (JSON.parse(r.content[0]?.text ?? '{}') as { error: { code: string } }).error.code;
}

export class McpWire {
  readonly messages: Message[] = [];
  /** Lines on stdout that are not JSON (there should be none). */
  readonly garbage: string[] = [];
  stderr = '';
  /** The exit status once the server has exited (null: killed by a signal). */
  readonly exited: Promise<number | null>;
  private buffer = '';
  private nextId = 1000;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        try {
          this.messages.push(JSON.parse(line) as Message);
        } catch {
          this.garbage.push(line);
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    // A server that stops reading makes a write fail with EPIPE: that is for the test to see, not a crash.
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Starts `skillctl mcp <args>` in `cwd`, without any message sent. */
  static spawn(cwd: string, args: readonly string[]): McpWire {
    const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    return new McpWire(child);
  }

  /** Starts `skillctl mcp <args>` in `cwd` and completes the initialize handshake. */
  static async start(cwd: string, args: readonly string[]): Promise<McpWire> {
    const wire = McpWire.spawn(cwd, args);
    const init = await wire.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attack-suite', version: '0' } });
    if (init.error !== undefined) throw new Error(`initialize failed: ${init.error.message}`);
    wire.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return wire;
  }

  /** The server's process id. */
  get pid(): number {
    return this.child.pid as number;
  }

  /** Writes a line as it is (a string or bytes), or the JSON of a message; then a newline unless `raw`. */
  send(message: unknown, raw = false): void {
    const line = typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message);
    this.child.stdin.write(raw ? line : Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
  }

  /** Sends a request with a fresh id and resolves with the answer to that id (within `ms`, the hang guard's by default). */
  request(method: string, params?: unknown, ms?: number): Promise<Message> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
    return this.answer(id, ms);
  }

  /** The answer to request `id`, once the server wrote it; rejects after the hang guard. */
  async answer(id: unknown, ms = HANG_GUARD_MS): Promise<Message> {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) {
      const found = this.messages.find((m) => m.id === id && m.method === undefined);
      if (found !== undefined) return found;
    }
    throw new Error(`no answer to request ${JSON.stringify(id)} within ${ms} ms; stderr: ${this.stderr}`);
  }

  /** Closes stdin (the session's end) and resolves with the exit status; kills it after the hang guard. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), HANG_GUARD_MS);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
