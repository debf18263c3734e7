/**
 * The egress proxy: the only way out of a sandbox's network namespace. It listens on a Unix
 * socket in a directory only this user can enter, which the sandbox shows at one of
 * EGRESS_SOCKETS, mounted by a descriptor checked to be it (socket-pin.ts); bridge.ts carries the
 * sandbox's TCP connections to it. It asks the run's gate about every request, as a built-in's
 * fetch is asked: a plain-HTTP request by its whole URL (checkUrl), a tunnel (CONNECT, what HTTPS
 * and Node's fetch use) by its host and port (checkTunnel). A tunnel that an http:// prefix
 * allowed carries plain HTTP, which the proxy reads: each request in it is checked by its whole
 * URL too, so a path prefix holds however the client asks. An HTTPS tunnel is read the same way
 * when the run's grant names an https path prefix (a host and port would let the program reach
 * every path): the proxy ends the program's TLS with a certificate the run's own authority signs
 * (cert.ts; the sandbox trusts that authority and no other), checks each request by its whole
 * URL, and makes the request again over TLS it verifies itself. Both resolve the name, refuse
 * special-purpose addresses, and connect to the address they checked, so a second DNS answer
 * cannot lead elsewhere. Each answer is recorded for the audit trail; a refusal is a 403 that
 * names its code.
 */
import type * as Http from 'node:http';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type * as Net from 'node:net';
import type { Socket } from 'node:net';
import type * as Tls from 'node:tls';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RunAuthority } from './cert.js';
import { forward, rawRefusal, relayUpgrade, type EgressGate, type Wire } from './request.js';
import { pinSocket } from './socket-pin.js';

export type { EgressGate } from './request.js';
export { DENIED_HEADER } from './request.js';

export interface EgressProxy {
  /**
   * What a connection must send first, a line of its own, before the proxy takes anything from
   * it (the bridge has it in its environment, EGRESS_TOKEN_VAR). The socket's directory keeps out
   * other users, not the same user's other processes: a skill of another run, granted the
   * temporary directory, could find the socket there and send requests under this run's grant.
   */
  readonly token: string;
  /**
   * A descriptor (O_PATH) of the socket the proxy listens on, checked to be it (socket-pin.ts):
   * what the sandbox is shown, whatever the socket's path holds by the time bubblewrap starts.
   */
  readonly socketFd: number;
  /** Stops listening, ends every connection, closes socketFd and removes the socket's directory. */
  close(): Promise<void>;
}

/** How long a connection may take to say who it is. */
const TOKEN_WAIT_MS = 10_000;

/** Connections from the sandbox at once; more are closed as they come. */
export const MAX_CONNECTIONS = 256;

/**
 * Connections to servers at once, over all the requests the sandbox sends; more wait for one to
 * end. A connection from the sandbox is not a request: one of them, pipelining, carried 3,000
 * requests, each sent on at once on a connection of its own.
 */
export const MAX_UPSTREAM = MAX_CONNECTIONS;

/**
 * Requests one connection from the sandbox may have unanswered at once (pipelined, as HTTP/1.1
 * allows); one more closes it. Each holds memory of skillctl's while it waits.
 */
export const MAX_PIPELINED = 32;

/** Reads what a tunnel carries, request by request: plain HTTP, or HTTPS whose TLS the proxy ends. */
interface Readers {
  readonly http: (client: Socket, origin: string) => void;
  readonly https?: (client: Socket, authority: string) => void;
}

async function tunnel(gate: EgressGate, req: IncomingMessage, client: Socket, head: Buffer, wire: Wire, read: Readers): Promise<void> {
  const authority = req.url ?? '';
  const d = await gate.checkTunnel(authority);
  if (!d.allowed) {
    client.end(rawRefusal('403 Forbidden', d));
    return;
  }
  const reader = d.resolved.startsWith('http:') ? read.http : read.https;
  if (reader !== undefined) {
    // Read it, request by request, rather than pass it on unseen.
    client.write('HTTP/1.1 200 Connection established\r\n\r\n');
    if (head.length > 0) client.unshift(head);
    reader(client, authority);
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
 * someone else made first is refused, never used) and removes on close. With `authority`, HTTPS
 * tunnels are read (their TLS ended with certificates it signs) rather than passed on.
 */
export async function startEgressProxy(socketPath: string, gate: EgressGate, authority?: RunAuthority): Promise<EgressProxy> {
  const dir = dirname(socketPath);
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  // Every socket, the sandbox's and the servers', and every request sent on (one may wait for a
  // place among the agent's connections), so that close() ends them all. One made after close
  // (its URL was being checked) is ended at once: nothing of a run is sent after it.
  const sockets = new Set<Socket | ClientRequest>();
  let closed = false;
  const track = (s: Socket | ClientRequest): void => {
    if (closed) return void s.destroy();
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const [http, net] = await Promise.all([import('node:http'), import('node:net')]);
  const secure = authority !== undefined ? await Promise.all([import('node:https'), import('node:tls')]) : undefined;
  const isClosed = (): boolean => closed;
  const agents = {
    agent: sealed(new http.Agent({ keepAlive: true, maxTotalSockets: MAX_UPSTREAM }), isClosed, net.Socket),
    ...(secure !== undefined ? { agentTls: sealed(new secure[0].Agent({ maxTotalSockets: MAX_UPSTREAM }), isClosed, net.Socket) } : {}),
  };
  const wire: Wire = { request: http.request, connect: net.connect, track, ...agents, ...(secure !== undefined ? { requestTls: secure[0].request } : {}) };
  const unanswered = new WeakMap<Socket, number>();
  const handle = (req: IncomingMessage, res: ServerResponse, origin: string | undefined): void => {
    const n = unanswered.get(req.socket) ?? 0;
    if (n >= MAX_PIPELINED) {
      req.socket.destroy();
      return;
    }
    unanswered.set(req.socket, n + 1);
    res.on('close', () => unanswered.set(req.socket, (unanswered.get(req.socket) ?? 1) - 1));
    forward(gate, req, res, wire, origin).catch(() => res.destroy());
  };
  const server = http.createServer((req, res) => handle(req, res, undefined));
  // The plain-HTTP tunnels' requests, each with the origin its CONNECT named.
  const origins = new WeakMap<Socket, string>();
  const inner = http.createServer((req, res) => handle(req, res, origins.get(req.socket)));
  inner.on('clientError', (_err, s: Socket) => s.destroy());
  inner.on('upgrade', (req: IncomingMessage, s: Socket, head: Buffer) => {
    relayUpgrade(gate, req, s, head, wire, origins.get(req.socket)).catch(() => s.destroy());
  });
  server.on('upgrade', (req: IncomingMessage, s: Socket, head: Buffer) => {
    relayUpgrade(gate, req, s, head, wire, undefined).catch(() => s.destroy());
  });
  const read: Readers = {
    http: (client, target) => {
      origins.set(client, `http://${target}`);
      inner.emit('connection', client);
    },
    ...(secure !== undefined && authority !== undefined ? { https: readTls(secure[1], authority, origins, (s) => inner.emit('connection', s)) } : {}),
  };
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnel(gate, req, client, head, wire, read).catch(() => client.destroy());
  });
  server.on('clientError', (_err, s: Socket) => s.destroy());
  const token = randomBytes(32).toString('hex');
  // A line of the token's length the proxy takes once, from pinSocket, and answers no further.
  const probe = Buffer.from(`${randomBytes(32).toString('hex')}\n`);
  let probed: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (probed = resolve));
  const front = net.createServer(admit(Buffer.from(`${token}\n`), (s) => server.emit('connection', s), { line: probe, seen: () => probed() }));
  // Each connection holds a descriptor of skillctl's, and its server side another: a process
  // that opens them without end would run skillctl out of them (its audit log among them).
  front.maxConnections = MAX_CONNECTIONS;
  front.on('connection', track);
  const stop = async (): Promise<void> => {
    closed = true;
    for (const s of sockets) s.destroy();
    agents.agent.destroy();
    agents.agentTls?.destroy();
    if (front.listening) await new Promise<void>((resolve) => front.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  };
  let pinned: FileHandle;
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(socketPath, () => resolve());
    });
    pinned = await pinSocket(net, socketPath, probe, seen);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    token,
    socketFd: pinned.fd,
    async close() {
      await stop();
      await pinned.close();
    },
  };
}

/**
 * An agent that opens no connection once the proxy is closed. Each of its connections that
 * close() ends hands its place to a request still waiting for one (destroyed, but still in the
 * agent's queue), and the agent would connect for it: to the server, after the run.
 */
function sealed<A extends Http.Agent>(agent: A, closed: () => boolean, Socket: typeof Net.Socket): A {
  const open = agent.createConnection.bind(agent);
  agent.createConnection = (options, done) => {
    if (!closed()) return open(options, done);
    // An unconnected socket stands for the stream the callback's type asks for; the error ends the request.
    done?.(new Error('skillctl egress: the run has ended'), new Socket());
    return undefined;
  };
  return agent;
}

/**
 * Ends a tunnel's TLS with a certificate for the host it names, signed by the run's authority,
 * and hands the decrypted stream to the request reader. A client that refuses the certificate
 * (it trusts another authority, or pins one) ends the handshake: nothing is sent upstream.
 */
function readTls(tls: typeof Tls, authority: RunAuthority, origins: WeakMap<Socket, string>, serve: (s: Socket) => void): (client: Socket, target: string) => void {
  return (client, target) => {
    const host = target.slice(0, target.lastIndexOf(':')).replace(/^\[|\]$/g, '');
    const cert = authority.issue(host);
    const secured = new tls.TLSSocket(client, { isServer: true, secureContext: tls.createSecureContext({ cert: cert.cert, key: cert.key }), ALPNProtocols: ['http/1.1'] });
    secured.on('error', () => secured.destroy());
    origins.set(secured, `https://${target}`);
    serve(secured);
  };
}

/**
 * A connection is handed to the proxy only once its first line is the token, compared whole in
 * constant time; anything else (a wrong or longer line, nothing within TOKEN_WAIT_MS) is closed
 * unanswered. The bridge then waits for one byte, `\n`, before it sends the program's bytes, so
 * nothing of theirs arrives before the HTTP parser does. The probe's line (of the same length)
 * is reported, once, and closed unanswered too.
 */
function admit(expected: Buffer, serve: (s: Socket) => void, probe: { readonly line: Buffer; readonly seen: () => void }): (s: Socket) => void {
  let probed = false;
  return (s) => {
    s.on('error', () => s.destroy());
    const timer = setTimeout(() => s.destroy(), TOKEN_WAIT_MS);
    let got = Buffer.alloc(0);
    const onData = (d: Buffer): void => {
      got = Buffer.concat([got, d]);
      if (got.length < expected.length) return;
      s.removeListener('data', onData);
      clearTimeout(timer);
      if (!probed && got.length === probe.line.length && timingSafeEqual(got, probe.line)) {
        probed = true;
        probe.seen();
      }
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
        s.destroy();
        return;
      }
      serve(s);
      s.write('\n');
    };
    s.on('data', onData);
  };
}
