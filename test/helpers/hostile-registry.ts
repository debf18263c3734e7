/**
 * A misbehaving registry on 127.0.0.1: it speaks enough of the distribution API to serve one
 * skill artifact and take a push (./hostile-uploads.ts), and each `Misbehaviour` makes it lie in
 * one way (a wrong digest, a short, cut, endless or trickled body, a huge manifest, redirects,
 * a failing upload, a Retry-After too long to wait for). It can ask for Bearer tokens (./hostile-bearer.ts) and hold requests a test wants to
 * act between. It records every request with its Authorization header, so a test can tell
 * where credentials went.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildArtifact, type SkillConfig } from '../../src/core/oci/index.js';
import { sha256 } from '../../src/core/digest/index.js';
import { bearerGate, type BearerOptions } from './hostile-bearer.js';
import { serveUpload, type UploadStore } from './hostile-uploads.js';

export type Misbehaviour =
  | 'none'
  | 'wrong-layer-digest'
  | 'gzip-header-changed'
  | 'short-layer'
  | 'cut-layer'
  | 'long-layer'
  | 'huge-manifest'
  | 'huge-manifest-unannounced'
  | 'manifest-digest-header-lies'
  | 'redirect-loop'
  | 'redirect-other-host'
  | 'redirect-other-host-401'
  | 'redirect-same-host'
  | 'redirect-plain-http'
  | 'layer-media-type'
  | 'image-manifest'
  | 'busy-then-ok'
  | 'always-500'
  | 'always-503-retry-after-10'
  | 'trickle-layer'
  | 'patch-500';

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
}

export interface HostileRegistry {
  /** `127.0.0.1:<port>` */
  readonly host: string;
  readonly seen: Seen[];
  /** Requests the second server (the "other host" of redirects) received. */
  readonly otherSeen: Seen[];
  readonly digest: string;
  /** Tokens the Bearer endpoint gave (with `bearer`). */
  readonly tokens: readonly string[];
  /** What was pushed: blobs committed, sessions still open. */
  readonly store: UploadStore;
  close(): Promise<void>;
}

const CONFIG: SkillConfig = {
  kind: 'agent-skill',
  id: 'pdf-notes',
  version: '1.2.0',
  manifest_digest: `sha256:${'0'.repeat(64)}`,
  content_digest: `sha256:${'0'.repeat(64)}`,
};

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface HostileOptions {
  readonly misbehaviour: Misbehaviour;
  /** The layer's bytes (an archive; a hostile one for the archive attacks). */
  readonly layer: Buffer;
  /** Answer 401 with a Basic challenge unless this Authorization header is sent. */
  readonly basic?: string;
  /** The config the artifact carries (default: one naming pdf-notes with zero digests). */
  readonly config?: SkillConfig;
  /**
   * Sends the first half of the layer (the true one, or gzip-header-changed's), then waits for
   * this before sending the rest: a test can look at what the client did with the bytes it had
   * before the blob was complete, or act on the folder it unpacks into.
   */
  readonly pauseLayer?: Promise<void>;
  /** Ask for Bearer tokens (after `basic`, if both). */
  readonly bearer?: BearerOptions;
  /** Called with each request that passed auth; the request waits for the promise it returns. */
  readonly hold?: (seen: Seen) => Promise<void> | undefined;
  /** The `errors[].message` of always-500's answer (default: storage on fire). */
  readonly errorMessage?: string;
  /** Keep idle connections open for ever (Node closes them after 5 s): a client that leaves one bound then never exits. */
  readonly keepIdle?: boolean;
}

export async function hostileRegistry(opts: HostileOptions): Promise<HostileRegistry> {
  const built = buildArtifact(opts.config ?? CONFIG, opts.layer, 'pdf-notes-1.2.0.tgz');
  let manifest = built.manifest;
  if (opts.misbehaviour === 'layer-media-type') manifest = Buffer.from(manifest.toString('utf8').replace('application/vnd.cncf.skill.bundle.v1.tar+gzip', 'application/vnd.oci.image.layer.v1.tar+gzip'));
  if (opts.misbehaviour === 'image-manifest') manifest = Buffer.from(manifest.toString('utf8').replace(/"artifactType":"[^"]*",/, '').replace('application/vnd.cncf.skill.config.v1+json', 'application/vnd.oci.image.config.v1+json'));
  const digest = sha256(manifest);
  const seen: Seen[] = [];
  const otherSeen: Seen[] = [];
  const store: UploadStore = { blobs: new Map(), sessions: new Map() };
  let busy = 0;

  const other = createServer((req, res) => {
    otherSeen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    if (opts.misbehaviour === 'redirect-other-host-401') {
      // Storage that asks for a token from a realm of its choosing: a client that answered
      // would send it the registry's credentials.
      const token = (req.url ?? '').startsWith('/token');
      res.writeHead(token ? 200 : 401, token ? { 'content-type': 'application/json' } : { 'www-authenticate': `Bearer realm="http://localhost:${otherPort}/token",service="storage"` });
      res.end(token ? JSON.stringify({ token: 'storage-token' }) : undefined);
      return;
    }
    res.writeHead(200, { 'content-length': String(opts.layer.length) });
    res.end(opts.layer);
  });
  const otherPort = await listen(other);

  let bearer: ReturnType<typeof bearerGate> | undefined;
  const gate = (req: IncomingMessage, res: ServerResponse): void => {
    const entry = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization };
    seen.push(entry);
    if (opts.basic !== undefined && req.headers.authorization !== opts.basic) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="hostile"', 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }));
      return;
    }
    if (bearer?.handle(req, res) === true) return;
    const held = opts.hold?.(entry);
    if (held === undefined) route(req, res);
    else void held.then(() => route(req, res));
  };

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (serveUpload(req, res, store, opts.misbehaviour === 'patch-500' ? 'patch-500' : 'none')) return;
    if (opts.misbehaviour === 'always-500') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: 'UNKNOWN', message: opts.errorMessage ?? 'storage on fire' }] }));
      return;
    }
    if (opts.misbehaviour === 'always-503-retry-after-10') {
      // A client that honours Retry-After waits 10 s before each retry.
      res.writeHead(503, { 'retry-after': '10', 'content-length': '0' });
      res.end();
      return;
    }
    if (opts.misbehaviour === 'busy-then-ok' && busy < 2) {
      busy++;
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
      return;
    }
    const url = req.url ?? '';
    const m = /^\/v2\/[^/]+(?:\/[^/]+)*\/(manifests|blobs)\/([^/?]+)/.exec(url);
    if (m === null) {
      res.writeHead(url === '/v2/' ? 200 : 404);
      res.end();
      return;
    }
    if (m[1] === 'manifests') {
      if (opts.misbehaviour === 'huge-manifest' || opts.misbehaviour === 'huge-manifest-unannounced') {
        const size = 50 * 1024 * 1024;
        res.writeHead(200, { 'content-type': 'application/vnd.oci.image.manifest.v1+json', ...(opts.misbehaviour === 'huge-manifest' ? { 'content-length': String(size) } : {}) });
        // Written in pieces while the client reads; it stops reading long before the end.
        const piece = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = (): void => {
          while (sent < size) {
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('error', () => undefined);
        more();
        return;
      }
      const header = opts.misbehaviour === 'manifest-digest-header-lies' ? sha256('another manifest') : digest;
      res.writeHead(200, { 'content-type': 'application/vnd.oci.image.manifest.v1+json', 'docker-content-digest': header, 'content-length': String(manifest.length) });
      res.end(req.method === 'HEAD' ? undefined : manifest);
      return;
    }
    const blob = m[2] === built.configDescriptor.digest ? built.config : m[2] === built.layerDescriptor.digest ? opts.layer : store.blobs.get(m[2] as string);
    if (blob === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (blob === opts.layer) {
      switch (opts.misbehaviour) {
        case 'gzip-header-changed': {
          // Another gzip file of the same length and the same content: only its mtime field
          // differs, which gunzip ignores. It unpacks and validates; only the digest tells.
          const other = Buffer.from(blob);
          other[4] = (other[4] as number) ^ 0x01;
          res.writeHead(200, { 'content-length': String(other.length) });
          res.write(other.subarray(0, other.length >> 1));
          void (opts.pauseLayer ?? Promise.resolve()).then(() => res.end(other.subarray(other.length >> 1)));
          return;
        }
        case 'wrong-layer-digest': {
          const bad = Buffer.from(blob);
          bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 0xff;
          res.writeHead(200, { 'content-length': String(bad.length) });
          res.end(bad);
          return;
        }
        case 'short-layer':
          // No length announced (chunked): half the bytes, then a clean end.
          res.writeHead(200);
          res.end(blob.subarray(0, blob.length >> 1));
          return;
        case 'cut-layer':
          // Promises every byte, sends half, then cuts the connection.
          res.writeHead(200, { 'content-length': String(blob.length) });
          res.write(blob.subarray(0, blob.length >> 1), () => res.destroy());
          return;
        case 'long-layer': {
          // No length announced: the bytes, then more, without end until the client hangs up.
          res.writeHead(200);
          res.write(blob);
          const junk = Buffer.alloc(64 * 1024, 0x41);
          const timer = setInterval(() => res.write(junk), 1);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case 'trickle-layer': {
          // Every byte promised, one sent every 200 ms: never quiet long enough for an idle
          // timer, and hours for a layer of kilobytes.
          res.writeHead(200, { 'content-length': String(blob.length) });
          let sent = 0;
          const timer = setInterval(() => {
            if (sent < blob.length) res.write(blob.subarray(sent, ++sent));
          }, 200);
          res.on('close', () => clearInterval(timer));
          return;
        }
        case 'redirect-loop':
          res.writeHead(302, { location: url.includes('?again') ? url.replace('?again', '') : `${url}?again` });
          res.end();
          return;
        case 'redirect-same-host':
          // The same origin, spelt by the server (lower case, as URL resolution gives it).
          if (!url.includes('?moved')) {
            res.writeHead(307, { location: `${url}?moved` });
            res.end();
            return;
          }
          break;
        case 'redirect-other-host':
        case 'redirect-other-host-401':
          // `localhost` is another origin than 127.0.0.1 for the client.
          res.writeHead(307, { location: `http://localhost:${otherPort}/storage/${m[2]}` });
          res.end();
          return;
        case 'redirect-plain-http':
          // Plain HTTP to a host that is not loopback: refused before any connection.
          res.writeHead(302, { location: `http://registry.example.invalid/storage/${m[2]}` });
          res.end();
          return;
        default:
          if (opts.pauseLayer !== undefined && req.method === 'GET') {
            res.writeHead(200, { 'content-length': String(blob.length) });
            res.write(blob.subarray(0, blob.length >> 1));
            void opts.pauseLayer.then(() => res.end(blob.subarray(blob.length >> 1)));
            return;
          }
          break;
      }
    }
    res.writeHead(200, { 'content-length': String(blob.length) });
    res.end(req.method === 'HEAD' ? undefined : blob);
  };

  const server = createServer(gate);
  if (opts.keepIdle === true) server.keepAliveTimeout = 0;
  const port = await listen(server);
  if (opts.bearer !== undefined) bearer = bearerGate(opts.bearer, `http://127.0.0.1:${port}/token`);
  return {
    host: `127.0.0.1:${port}`,
    seen,
    otherSeen,
    digest,
    tokens: bearer?.issued ?? [],
    store,
    close: async () => {
      server.closeAllConnections();
      other.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => other.close(r))]);
    },
  };
}
