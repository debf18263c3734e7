/**
 * MCP over Streamable HTTP (the SDK's transport), for agent hosts that do not spawn processes.
 * One MCP session per `initialize`, each with a server (and so a registry session) of its own,
 * addressed by the `Mcp-Session-Id` the transport issues. Bodies are read here, bounded, and
 * classified as stdio lines are (inbound.ts), so a broken message gets its JSON-RPC error rather
 * than the transport's generic one; only a well-formed message reaches the transport. Every
 * request carries the server's bearer token (bearer.ts), checked before anything else is looked
 * at. The Host header is checked (DNS rebinding) when the server listens on loopback.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '../server.js';
import { bearerMatches } from './bearer.js';
import { errorResponse, RPC } from './errors.js';
import { admit } from './inbound.js';
import { isLoopback } from './loopback.js';
import { MAX_MESSAGE_BYTES } from './stdio.js';

/** The path the MCP endpoint is served at. */
export const MCP_PATH = '/mcp';

export interface HttpServing {
  /** `http://host:port/mcp`, with the port the system gave for port 0. */
  readonly url: string;
  /** Resolves when the listener has closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, body: JSONRPCErrorResponse): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The body, or undefined when it passed `max` (the request is then answered 413). */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Listens on `host:port` and serves a new MCP server (from `newServer`) per session, to requests that carry `token`. */
export async function serveHttp(host: string, port: number, token: string, newServer: () => McpServer, onError: (err: Error) => void): Promise<HttpServing> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!bearerMatches(req.headers.authorization, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="skillctl mcp"');
      reply(res, 401, errorResponse(null, RPC.INVALID_REQUEST, 'Unauthorized: send the server\'s token as Authorization: Bearer <token>'));
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: the MCP endpoint is ${MCP_PATH}\n`);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (typeof sid === 'string' && existing === undefined) {
      reply(res, 404, errorResponse(null, -32001, 'Session not found: start a new session with initialize'));
      return;
    }
    if (req.method !== 'POST') {
      if (existing === undefined) reply(res, 400, errorResponse(null, RPC.INVALID_REQUEST, 'Invalid Request: no session; start one with initialize'));
      else await existing.handleRequest(req, res);
      return;
    }
    const body = await readBody(req, MAX_MESSAGE_BYTES);
    if (body === undefined) {
      reply(res, 413, errorResponse(null, RPC.INVALID_REQUEST, `Invalid Request: a message is limited to ${MAX_MESSAGE_BYTES} bytes`));
      return;
    }
    const inbound = admit(body);
    if ('reply' in inbound) {
      reply(res, 400, inbound.reply);
      return;
    }
    if ('ignore' in inbound) {
      res.writeHead(202).end();
      return;
    }
    const message = inbound.message;
    if (existing !== undefined) {
      await existing.handleRequest(req, res, message);
      return;
    }
    if (!('method' in message) || message.method !== 'initialize') {
      reply(res, 400, errorResponse('id' in message && message.id !== undefined ? message.id : null, RPC.INVALID_REQUEST, 'Invalid Request: no session; the first request is initialize'));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
      ...(allowedHosts !== undefined ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await newServer().connect(transport);
    await transport.handleRequest(req, res, message);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      onError(err instanceof Error ? err : new Error(String(err)));
      if (!res.headersSent) reply(res, 500, errorResponse(null, RPC.INTERNAL_ERROR, 'Internal error'));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const bound = (http.address() as AddressInfo).port;
  if (isLoopback(host)) allowedHosts = [`${host}:${bound}`, `localhost:${bound}`, `127.0.0.1:${bound}`, `[::1]:${bound}`];
  const closed = new Promise<void>((resolve) => http.once('close', () => resolve()));
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}${MCP_PATH}`,
    closed,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
