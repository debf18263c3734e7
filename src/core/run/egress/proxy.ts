/**
 * The egress proxy: the only way out of a sandbox's network namespace. It listens on a Unix
 * socket in a directory only this user can enter, which the sandbox shows at EGRESS_SOCKET
 * (bridge.ts carries the sandbox's TCP connections to it), and asks the run's gate about every
 * request, as a built-in's fetch is asked: a plain-HTTP request by its whole URL (checkUrl), a
 * tunnel (CONNECT, what HTTPS and Node's fetch use) by its host and port (checkTunnel). A tunnel
 * that an http:// prefix allowed carries plain HTTP, which the proxy reads: each request in it
 * is checked by its whole URL too, so a path prefix holds however the client asks. Both
 * resolve the name, refuse special-purpose addresses, and connect to the address they checked, so
 * a second DNS answer cannot lead elsewhere. Each answer is recorded for the audit trail; a
 * refusal is a 403 that names its code.
 */
import type * as Http from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type * as Net from 'node:net';
import type { Socket } from 'node:net';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
// The gate's module, not policy/index.js, which holds the policy file loader (YAML).
import type { PolicyDecision, RecordingGate } from '../../policy/gate.js';

export type EgressGate = Pick<RecordingGate, 'checkUrl' | 'checkTunnel'>;

export interface EgressProxy {
  /** Stops listening, ends every connection and removes the socket's directory. */
  close(): Promise<void>;
}

/** Headers for one hop only (RFC 9110 §7.6.1), and the proxy's own. */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Connections from the sandbox at once; more are closed as they come. */
export const MAX_CONNECTIONS = 256;

/** The header that names a refusal's code, for programs that look. */
export const DENIED_HEADER = 'x-skillctl-denied';

function refusalBody(d: Extract<PolicyDecision, { allowed: false }>): string {
  return `skillctl egress: ${d.code}: ${d.reason}\n`;
}

function forwardedHeaders(req: IncomingMessage, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const named = new Set((req.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()));
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && !named.has(name) && value !== undefined) out[name] = value;
  out.host = host;
  return out;
}

function responseHeaders(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP_BY_HOP.has((raw[i] as string).toLowerCase())) out.push(raw[i] as string, raw[i + 1] as string);
  return out;
}

/**
 * A plain-HTTP request: absolute-form (`GET http://host/path`) from a client that proxies, or
 * origin-form (`GET /path`) inside a tunnel to `origin` (host:port).
 */
/** node:http and node:net, loaded when a proxy starts: a run without net.http never pays for them. */
interface Wire {
  readonly request: typeof Http.request;
  readonly connect: typeof Net.connect;
  readonly track: (s: Socket) => void;
}

async function forward(gate: EgressGate, req: IncomingMessage, res: ServerResponse, wire: Wire, origin: string | undefined): Promise<void> {
  const raw = origin === undefined ? (req.url ?? '') : (req.url ?? '').startsWith('/') ? `http://${origin}${req.url ?? ''}` : '';
  const refuse = (status: number, d: Extract<PolicyDecision, { allowed: false }>): void => {
    const body = refusalBody(d);
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), [DENIED_HEADER]: d.code, connection: 'close' }).end(body);
  };
  // An origin-form request (`GET /path`) names no host, and an https:// one asks the proxy to
  // speak TLS for the program: HTTPS goes through a tunnel.
  if (!/^http:\/\//i.test(raw)) {
    return refuse(400, { allowed: false, code: 'POLICY_URL_INVALID', reason: 'net.http: the proxy takes http:// URLs; https goes through CONNECT' });
  }
  const d = await gate.checkUrl(raw);
  if (!d.allowed) return refuse(403, d);
  const url = new URL(d.resolved);
  const upstream = wire.request({
    host: d.address ?? url.hostname,
    port: url.port === '' ? 80 : Number(url.port),
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: forwardedHeaders(req, url.host),
    setHost: false,
  });
  upstream.on('socket', wire.track);
  upstream.on('response', (r) => {
    res.writeHead(r.statusCode ?? 502, r.statusMessage, responseHeaders(r.rawHeaders));
    r.pipe(res);
  });
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`skillctl egress: ${err.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

async function tunnel(gate: EgressGate, req: IncomingMessage, client: Socket, head: Buffer, wire: Wire, readHttp: (client: Socket, origin: string) => void): Promise<void> {
  const authority = req.url ?? '';
  const d = await gate.checkTunnel(authority);
  if (!d.allowed) {
    const body = refusalBody(d);
    client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\n${DENIED_HEADER}: ${d.code}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    return;
  }
  if (d.resolved.startsWith('http:')) {
    // Plain HTTP inside: read it, request by request, rather than pass it on unseen.
    client.write('HTTP/1.1 200 Connection established\r\n\r\n');
    if (head.length > 0) client.unshift(head);
    readHttp(client, authority);
    return;
  }
  const port = Number(authority.slice(authority.lastIndexOf(':') + 1));
  const upstream = wire.connect({ host: d.address as string, port });
  wire.track(upstream);
  upstream.on('error', (err) => {
    if (upstream.bytesRead === 0 && !client.destroyed) client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\nskillctl egress: ${err.message}\n`);
    else client.destroy();
  });
  client.on('error', () => upstream.destroy());
  upstream.on('connect', () => {
    client.write('HTTP/1.1 200 Connection established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream).pipe(client);
  });
}

/**
 * Starts the proxy on `socketPath`, whose directory it creates (it must not exist: a directory
 * someone else made first is refused, never used) and removes on close.
 */
export async function startEgressProxy(socketPath: string, gate: EgressGate): Promise<EgressProxy> {
  const dir = dirname(socketPath);
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  // Every socket, the sandbox's and the servers', so that close() ends them all.
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const [http, net] = await Promise.all([import('node:http'), import('node:net')]);
  const wire: Wire = { request: http.request, connect: net.connect, track };
  const server = http.createServer((req, res) => {
    forward(gate, req, res, wire, undefined).catch(() => res.destroy());
  });
  // The plain-HTTP tunnels' requests, each with the origin its CONNECT named.
  const origins = new WeakMap<Socket, string>();
  const inner = http.createServer((req, res) => {
    forward(gate, req, res, wire, origins.get(req.socket)).catch(() => res.destroy());
  });
  inner.on('clientError', (_err, s: Socket) => s.destroy());
  const readHttp = (client: Socket, origin: string): void => {
    origins.set(client, origin);
    inner.emit('connection', client);
  };
  // Each connection holds a descriptor of skillctl's, and its server side another: a process
  // that opens them without end would run skillctl out of them (its audit log among them).
  server.maxConnections = MAX_CONNECTIONS;
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnel(gate, req, client, head, wire, readHttp).catch(() => client.destroy());
  });
  server.on('clientError', (_err, s: Socket) => s.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
