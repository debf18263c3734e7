/**
 * A reverse proxy on 127.0.0.1 in front of a real registry, as nginx often stands before one:
 * it records every request (method, URL, Content-Length, the status given) and, with
 * `maxBodyBytes`, answers 413 to a request whose declared body is larger, as nginx's
 * client_max_body_size does (after reading the body, as nginx's lingering close lets a client
 * finish sending); with `redirectBodiesOver`, it redirects such a request instead; with
 * `headDigest`, a HEAD of a manifest answers that Docker-Content-Digest. Everything else goes to the registry unchanged, Host header included, so the
 * upload URLs the registry makes name the proxy.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxySeen {
  readonly method: string;
  readonly url: string;
  readonly contentLength: string | undefined;
  readonly status: number;
}

export interface RegistryProxy {
  /** `127.0.0.1:<port>` */
  readonly host: string;
  readonly seen: ProxySeen[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Answer 413 to a request whose Content-Length is larger (nginx's client_max_body_size). */
  readonly maxBodyBytes?: number;
  /** Answer 307 (to the same URL) to a request whose Content-Length is larger: a redirected upload. */
  readonly redirectBodiesOver?: number;
  /** The Docker-Content-Digest a HEAD of a manifest answers, whatever the registry said (a registry that answers HEAD and GET apart). */
  readonly headDigest?: () => string | undefined;
}

export async function registryProxy(registryPort: number, opts: ProxyOptions = {}): Promise<RegistryProxy> {
  const seen: ProxySeen[] = [];
  const server = createServer((req, res) => {
    const entry = { method: req.method ?? '', url: req.url ?? '', contentLength: req.headers['content-length'] };
    const length = Number(entry.contentLength ?? 0);
    const refuse = opts.maxBodyBytes !== undefined && length > opts.maxBodyBytes ? 413 : opts.redirectBodiesOver !== undefined && length > opts.redirectBodiesOver ? 307 : undefined;
    if (refuse !== undefined) {
      req.resume();
      req.on('end', () => {
        seen.push({ ...entry, status: refuse });
        res.writeHead(refuse, refuse === 307 ? { location: entry.url } : { 'content-type': 'text/html' });
        res.end(refuse === 413 ? '<html><head><title>413 Request Entity Too Large</title></head></html>\n' : undefined);
      });
      return;
    }
    const upstream = request({ host: '127.0.0.1', port: registryPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      seen.push({ ...entry, status: answer.statusCode ?? 0 });
      const lie = req.method === 'HEAD' && entry.url.includes('/manifests/') ? opts.headDigest?.() : undefined;
      res.writeHead(answer.statusCode ?? 502, lie !== undefined ? { ...answer.headers, 'docker-content-digest': lie } : answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
