/**
 * Real servers on 127.0.0.1 for network attacks: an HTTP server that records every request it
 * received (so a test can tell that a refused hop was never asked for), a raw TCP server for
 * answers HTTP servers will not send, and a gate whose checked address a test can replace.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PolicyGate } from '../../src/core/run/index.js';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly port: number;
  /** The path of every request received, in order. */
  readonly seen: string[];
  /** The Host header of every request received, in order. */
  readonly hosts: string[];
  close(): Promise<void>;
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An HTTP server on 127.0.0.1 answering with `route`, and upgrade requests (WebSocket's) with `upgrade`. */
export async function serve(route: (req: IncomingMessage, res: ServerResponse, base: string) => void, upgrade?: (req: IncomingMessage, socket: Socket, head: Buffer) => void): Promise<TestServer> {
  const seen: string[] = [];
  const hosts: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    hosts.push(req.headers.host ?? '');
    route(req, res, base);
  });
  // Upgraded connections are the handler's, not the server's: close() ends them itself.
  const upgraded = new Set<Socket>();
  if (upgrade !== undefined) {
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      seen.push(req.url ?? '');
      hosts.push(req.headers.host ?? '');
      upgraded.add(socket);
      socket.on('close', () => upgraded.delete(socket));
      socket.on('error', () => socket.destroy());
      upgrade(req, socket, head);
    });
  }
  const port = await listen(server);
  base = `http://127.0.0.1:${port}`;
  return {
    base,
    port,
    seen,
    hosts,
    close: async () => {
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A TCP server on 127.0.0.1 that hands each connection to `talk`; returns its port and a close. */
export async function serveRaw(talk: (socket: Socket) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    talk(socket);
  });
  const port = await listen(server);
  return {
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The real gate's decisions, with `address` replaced (or removed) in the allowed ones. */
export function withAddress(gate: PolicyGate, address: string | undefined): PolicyGate {
  return {
    checkRead: (p) => gate.checkRead(p),
    checkWrite: (p) => gate.checkWrite(p),
    checkExec: (argv) => gate.checkExec(argv),
    checkEnv: (name) => gate.checkEnv(name),
    checkUrl: async (url) => {
      const d = await gate.checkUrl(url);
      if (!d.allowed) return d;
      return address !== undefined ? { allowed: true, resolved: d.resolved, address } : { allowed: true, resolved: d.resolved };
    },
  };
}
