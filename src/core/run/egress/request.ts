/**
 * One request through the egress proxy, after its connection was admitted: checked by its whole
 * URL, then sent on to the address the gate checked. A request is absolute-form (`GET
 * http://host/path`) from a client that proxies, or origin-form (`GET /path`) inside a tunnel the
 * proxy reads, to `origin` (`http://host:port`, or `https://host:port` for a tunnel whose TLS it
 * ended). An upgrade (a WebSocket's `Connection: Upgrade`) is checked the same way, and once the
 * server agrees (101) its bytes pass both ways unread: one URL, checked, as a fetch is.
 */
import type * as Http from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type * as Https from 'node:https';
import type * as Net from 'node:net';
import type { Socket } from 'node:net';
// The gate's module, not policy/index.js, which holds the policy file loader (YAML).
import type { PolicyDecision, RecordingGate } from '../../policy/gate.js';

export type EgressGate = Pick<RecordingGate, 'checkUrl' | 'checkTunnel'>;

type Refusal = Extract<PolicyDecision, { allowed: false }>;

/** Headers for one hop only (RFC 9110 §7.6.1), and the proxy's own. */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The header that names a refusal's code, for programs that look. */
export const DENIED_HEADER = 'x-skillctl-denied';

function refusalBody(d: Refusal): string {
  return `skillctl egress: ${d.code}: ${d.reason}\n`;
}

/** A refusal written on a connection the HTTP server no longer answers (a tunnel, an upgrade). */
export function rawRefusal(status: '400 Bad Request' | '403 Forbidden', d: Refusal): string {
  const body = refusalBody(d);
  return `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\n${DENIED_HEADER}: ${d.code}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** How a body is framed; the proxy frames what it sends on itself, never as the program's headers say. */
const FRAMING = new Set(['content-length', 'transfer-encoding']);

/**
 * The headers sent on for `req`, with the framing of the body the proxy read: chunked when it
 * came chunked, else its length. Node sends a GET's (DELETE's, OPTIONS') body unframed when
 * the request says neither, and the server then reads that body as a request of its own, one the
 * gate never saw: a Transfer-Encoding (hop-by-hop) dropped, or a Content-Length the program's
 * Connection header named, let `GET /public` carry `GET /private` (egress-smuggling.test.ts).
 */
function forwardedHeaders(req: IncomingMessage, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const named = new Set((req.headers.connection ?? '').split(',').map((h) => h.trim().toLowerCase()));
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && !FRAMING.has(name) && !named.has(name) && value !== undefined) out[name] = value;
  // Node's parser took the body by exactly one of these, and refused a request with both.
  if (req.headers['transfer-encoding'] !== undefined) out['transfer-encoding'] = 'chunked';
  else if (req.headers['content-length'] !== undefined) out['content-length'] = req.headers['content-length'];
  out.host = host;
  return out;
}

/** A response's raw headers without those for one hop; `keep` are passed on all the same. */
function responseHeaders(raw: readonly string[], keep: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) || keep.has(name)) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

/** node:http and node:net, loaded when a proxy starts: a run without net.http never pays for them. */
export interface Wire {
  readonly request: typeof Http.request;
  /** node:https's, when the proxy reads HTTPS tunnels. */
  readonly requestTls?: typeof Https.request;
  /**
   * The proxy's own agents, which hold its connections to servers to a number
   * (MAX_UPSTREAM): one connection from the sandbox may carry any number of requests
   * (pipelined, each sent on at once), and each would hold a descriptor of skillctl's.
   */
  readonly agent: Http.Agent;
  readonly agentTls?: Https.Agent;
  readonly connect: typeof Net.connect;
  /** Ended when the proxy closes: a connection, or a request sent on (with its connection). */
  readonly track: (s: Socket | Http.ClientRequest) => void;
}

/**
 * The request sent on for `req`, to the address the gate checked, or why not. The certificate
 * of an https upstream is verified for the URL's own name (SNI too, unless it is an address),
 * against Node's CAs and NODE_EXTRA_CA_CERTS.
 */
async function upstream(gate: EgressGate, req: IncomingMessage, wire: Wire, origin: string | undefined, headers: (url: URL) => OutgoingHttpHeaders, wholeOrigin = false): Promise<{ readonly sent: Http.ClientRequest } | { readonly status: 400 | 403; readonly refusal: Refusal }> {
  const raw = origin === undefined ? (req.url ?? '') : (req.url ?? '').startsWith('/') ? `${origin}${req.url ?? ''}` : '';
  // An origin-form request (`GET /path`) names no host, and an https:// one asks the proxy to
  // speak TLS for the program: HTTPS goes through a tunnel.
  if (!(origin === undefined ? /^http:\/\//i : /^https?:\/\//i).test(raw)) {
    return { status: 400, refusal: { allowed: false, code: 'POLICY_URL_INVALID', reason: 'net.http: the proxy takes http:// URLs; https goes through CONNECT' } };
  }
  const d = await gate.checkUrl(raw);
  if (!d.allowed) return { status: 403, refusal: d };
  const url = new URL(d.resolved);
  if (wholeOrigin) {
    // What the request leads to reaches every path of its origin: the grant must name it whole.
    const root = await gate.checkUrl(`${url.origin}/`);
    if (!root.allowed) return { status: 403, refusal: root };
  }
  const tls = url.protocol === 'https:';
  const name = url.hostname.replace(/^\[|\]$/g, '');
  const options = {
    host: d.address ?? name,
    port: url.port !== '' ? Number(url.port) : tls ? 443 : 80,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: headers(url),
    setHost: false,
  };
  let sent: Http.ClientRequest;
  if (!tls) sent = wire.request({ ...options, agent: wire.agent });
  else if (wire.requestTls !== undefined) sent = wire.requestTls({ ...options, ...(d.address !== undefined && d.address !== name ? { servername: name } : {}), agent: wire.agentTls ?? false });
  // Only a proxy that reads HTTPS has an https origin; never send such a request in the clear.
  else return { status: 400, refusal: { allowed: false, code: 'POLICY_URL_INVALID', reason: 'net.http: this proxy does not read https' } };
  wire.track(sent);
  return { sent };
}

export async function forward(gate: EgressGate, req: IncomingMessage, res: ServerResponse, wire: Wire, origin: string | undefined): Promise<void> {
  const up = await upstream(gate, req, wire, origin, (url) => forwardedHeaders(req, url.host));
  if ('refusal' in up) {
    const body = refusalBody(up.refusal);
    res.writeHead(up.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), [DENIED_HEADER]: up.refusal.code, connection: 'close' }).end(body);
    return;
  }
  // A request whose program went away (its connection closed, or closed by the proxy for
  // pipelining too many) is not sent on, or is ended: else it would wait for a place among
  // the agent's connections, and hold one, for no one.
  const abandon = (): void => void (res.writableFinished || up.sent.destroy());
  if (res.destroyed) abandon();
  else res.on('close', abandon);
  const failed = (why: string): void => {
    if (res.destroyed) return;
    if (!res.headersSent) res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`skillctl egress: ${why}\n`);
    else res.destroy();
  };
  up.sent.on('response', (r) => {
    // Node's parser reads status lines its server will not write (a code under 100, a control
    // character in the reason); thrown here, in an event of skillctl's loop, that ended skillctl
    // mid-run, its record left without an end (egress-hostile-answers.test.ts).
    try {
      res.writeHead(r.statusCode ?? 502, r.statusMessage, responseHeaders(r.rawHeaders));
    } catch {
      r.destroy();
      failed('the server answered a status line that cannot be passed on');
      return;
    }
    r.pipe(res);
  });
  up.sent.on('error', (err) => failed(err.message));
  req.pipe(up.sent);
}

/** What a 101 answer carries on to the program: the upgrade itself is what it agreed to. */
const UPGRADE_HEADERS: ReadonlySet<string> = new Set(['connection', 'upgrade']);

/**
 * A WebSocket's frames go to the one URL checked. Any other protocol may carry requests of its
 * own: h2c (HTTP/2 in the clear, RFC 7540 §3.2) opens streams for any path of the host, which a
 * grant of a path prefix would not allow (`http://host/v1`, then `/admin` over h2c).
 */
const WEBSOCKET = /^\s*websocket\s*$/i;

/**
 * An upgrade request (`client` is the connection the HTTP server gave up, `head` what followed the
 * request on it): checked and sent on as a request is, with its Connection and Upgrade headers;
 * one to another protocol than WebSocket only when the grant covers its whole origin.
 * On 101 the answer goes back whole and both connections are joined; any other answer goes back
 * and the connection is closed.
 */
export async function relayUpgrade(gate: EgressGate, req: IncomingMessage, client: Socket, head: Buffer, wire: Wire, origin: string | undefined): Promise<void> {
  client.on('error', () => client.destroy());
  const protocol = req.headers.upgrade ?? '';
  // No body goes with it: what follows the request is the upgraded protocol's, sent after the 101.
  const headers = (url: URL): OutgoingHttpHeaders => {
    const out = forwardedHeaders(req, url.host);
    delete out['content-length'];
    delete out['transfer-encoding'];
    return { ...out, connection: 'Upgrade', upgrade: protocol };
  };
  const up = await upstream(gate, req, wire, origin, headers, !WEBSOCKET.test(protocol));
  if ('refusal' in up) {
    client.end(rawRefusal(up.status === 400 ? '400 Bad Request' : '403 Forbidden', up.refusal));
    return;
  }
  const statusLine = (r: IncomingMessage, headers: readonly string[]): string => {
    let text = `HTTP/1.1 ${r.statusCode ?? 502} ${r.statusMessage ?? ''}\r\n`;
    for (let i = 0; i + 1 < headers.length; i += 2) text += `${headers[i] as string}: ${headers[i + 1] as string}\r\n`;
    return text;
  };
  up.sent.on('upgrade', (r: IncomingMessage, server: Socket, serverHead: Buffer) => {
    wire.track(server);
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
    client.write(`${statusLine(r, responseHeaders(r.rawHeaders, UPGRADE_HEADERS))}\r\n`);
    if (serverHead.length > 0) client.write(serverHead);
    if (head.length > 0) server.write(head);
    server.pipe(client).pipe(server);
  });
  up.sent.on('response', (r: IncomingMessage) => {
    client.write(`${statusLine(r, responseHeaders(r.rawHeaders))}connection: close\r\n\r\n`);
    r.pipe(client);
  });
  up.sent.on('error', (err) => {
    if (client.bytesWritten === 0) client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\nskillctl egress: ${err.message}\n`);
    else client.destroy();
  });
  up.sent.end();
}
