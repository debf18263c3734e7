// The HTTP exchange under the registry transport: a response body read as the socket delivers it,
// with the socket paused while more than 1 MiB waits unread (a fast server cannot fill memory);
// a body cut short rejects the read instead of ending quietly; and an upload the server answers
// early (a 413 before the body) stops reading its source once released.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { exchange } from '../../../src/core/net/http-exchange.js';

const MIB = 1024 * 1024;

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: URL }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/blob`) };
}

const close = (server: Server): Promise<void> => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
};

describe('http exchange', () => {
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) await close(s);
  });

  it('pauses the socket while the unread body is over 1 MiB, then reads all of it', async () => {
    const body = randomBytes(64 * MIB);
    // The server sends a MiB at a time, as fast as the connection takes it.
    let sent = 0;
    const { server, url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      const more = (): void => {
        while (sent < body.length) {
          const ok = res.write(body.subarray(sent, sent + MIB));
          sent += MIB;
          if (!ok) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    servers.push(server);
    const res = await exchange('GET', url, {}, undefined, () => undefined).response;
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('Content-Length'), String(body.length));
    // Unread for a while: the server cannot hand the kernel more than the client's 1 MiB plus
    // what the loopback socket buffers hold, far below 64 MiB.
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(sent < 32 * MIB, `${sent} bytes left the server before any was read`);
    const hash = createHash('sha256');
    let total = 0;
    for (let piece = await res.body.read(); piece !== undefined; piece = await res.body.read()) {
      hash.update(piece);
      total += piece.length;
    }
    assert.equal(total, body.length);
    assert.equal(hash.digest('hex'), createHash('sha256').update(body).digest('hex'));
  });

  it('a body cut short rejects the read', async () => {
    const { server, url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(10 * MIB) });
      res.write(Buffer.alloc(MIB), () => res.destroy());
    });
    servers.push(server);
    const res = await exchange('GET', url, {}, undefined, () => undefined).response;
    let total = 0;
    await assert.rejects(async () => {
      for (let piece = await res.body.read(); piece !== undefined; piece = await res.body.read()) total += piece.length;
    });
    assert.ok(total <= MIB);
  });

  it('a body over 1 MiB that arrived whole while unread, then cancelled: the connection goes back to the pool (it is not left bound)', async () => {
    // 1 MiB pauses the socket; the rest still arrives whole (it fits the stream's buffer), so
    // the message is complete but its end is never read. Left paused, 'end' never came and the
    // socket stayed bound to it: a process waiting on nothing else never exited.
    let connections = 0;
    const { server, url } = await serve((req, res) => {
      const size = req.url === '/big' ? MIB + 40 * 1024 : 2;
      res.writeHead(200, { 'content-length': String(size) });
      res.end(Buffer.alloc(size, 0x20));
    });
    server.on('connection', () => connections++);
    servers.push(server);
    const big = exchange('GET', new URL('/big', url), {}, undefined, () => undefined);
    const res = await big.response;
    await new Promise((r) => setTimeout(r, 300));
    await res.body.cancel();
    big.release();
    // The next request to the same server goes over the same connection, once it is free.
    await new Promise((r) => setTimeout(r, 50));
    const small = exchange('GET', new URL('/small', url), {}, undefined, () => undefined);
    const again = await small.response;
    while ((await again.body.read()) !== undefined);
    small.release();
    assert.equal(connections, 1);
  });

  it('an upload answered early stops reading its source once released', async () => {
    const { server, url } = await serve((req, res) => {
      // Answers before reading the body, as a registry refusing a request that large may, and
      // neither reads it nor closes: only the client can stop sending.
      req.on('data', () => undefined);
      req.pause();
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.end('too large');
    });
    servers.push(server);
    let produced = 0;
    let closed = false;
    async function* pieces(): AsyncGenerator<Uint8Array> {
      try {
        for (; produced < 1024; produced++) yield Buffer.alloc(MIB);
      } finally {
        closed = true;
      }
    }
    const ex = exchange('PUT', url, { 'content-length': String(1024 * MIB) }, pieces(), () => undefined);
    const res = await ex.response;
    assert.equal(res.status, 413);
    await res.body.cancel();
    ex.release();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(closed, true);
    assert.ok(produced < 1024, `${produced} MiB were read of the source`);
  });
});
