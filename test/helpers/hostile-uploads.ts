/**
 * The upload half of the distribution API for the hostile registry (./hostile-registry.ts):
 * sessions (POST, PATCH, PUT `?digest=`, DELETE) and manifest PUTs, held in memory, with the
 * failures push must clean up after. The registry hashes what a session received and refuses a
 * commit whose digest does not match, as distribution does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sha256 } from '../../src/core/digest/index.js';

export type UploadMisbehaviour = 'none' | 'patch-500';

export interface UploadStore {
  /** Blobs committed, by digest. */
  readonly blobs: Map<string, Buffer>;
  /** Sessions open, by id: what they received so far. */
  readonly sessions: Map<string, Buffer[]>;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

let next = 0;

/** Answers `req` when it is an upload or a manifest PUT; false otherwise. */
export function serveUpload(req: IncomingMessage, res: ServerResponse, store: UploadStore, misbehaviour: UploadMisbehaviour): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  const start = /^\/v2\/(.+)\/blobs\/uploads\/?$/.exec(url.pathname);
  const session = /^\/v2\/(.+)\/blobs\/uploads\/([^/]+)$/.exec(url.pathname);
  const manifest = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(url.pathname);
  if (start !== null && req.method === 'POST') {
    const id = String(++next);
    store.sessions.set(id, []);
    req.resume();
    res.writeHead(202, { location: `/v2/${start[1]}/blobs/uploads/${id}`, 'content-length': '0' });
    res.end();
    return true;
  }
  if (session !== null) {
    const [, repo, id] = session as unknown as [string, string, string];
    const parts = store.sessions.get(id);
    void readAll(req).then((body) => {
      if (parts === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errors: [{ code: 'BLOB_UPLOAD_UNKNOWN', message: 'no such upload' }] }));
      }
      if (req.method === 'DELETE') {
        store.sessions.delete(id);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'PATCH' && misbehaviour === 'patch-500') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errors: [{ code: 'UNKNOWN', message: 'storage on fire' }] }));
      }
      parts.push(body);
      if (req.method === 'PATCH') {
        res.writeHead(202, { location: `/v2/${repo}/blobs/uploads/${id}`, 'content-length': '0' });
        return res.end();
      }
      const all = Buffer.concat(parts);
      const digest = url.searchParams.get('digest');
      if (req.method !== 'PUT' || digest !== sha256(all)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errors: [{ code: 'DIGEST_INVALID', message: 'digest mismatch' }] }));
      }
      store.sessions.delete(id);
      store.blobs.set(digest, all);
      res.writeHead(201, { location: `/v2/${repo}/blobs/${digest}`, 'content-length': '0' });
      return res.end();
    });
    return true;
  }
  if (manifest !== null && req.method === 'PUT') {
    void readAll(req).then((body) => {
      store.blobs.set(sha256(body), body);
      res.writeHead(201, { 'docker-content-digest': sha256(body), location: `/v2/${manifest[1]}/manifests/${sha256(body)}`, 'content-length': '0' });
      res.end();
    });
    return true;
  }
  return false;
}
