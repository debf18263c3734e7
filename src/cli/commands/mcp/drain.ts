/**
 * The end of a stdio session. A client may write its last requests and close our stdin at once
 * (`printf '…' | skillctl mcp`); closing the server on stdin's end would drop the replies still
 * being computed. So requests are counted in and replies out, and the server closes once stdin
 * has ended and every request has had its reply written.
 */
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

function requestId(m: JSONRPCMessage): Id | undefined {
  return 'method' in m && 'id' in m ? m.id : undefined;
}

function replyId(m: JSONRPCMessage): Id | undefined {
  return !('method' in m) && 'id' in m && m.id !== undefined && m.id !== null ? (m.id as Id) : undefined;
}

/** Wraps a connected transport; calls `close` once `stdin` ended and no request awaits its reply. */
export function closeWhenDrained(transport: Transport, stdin: Readable, close: () => void): void {
  const pending = new Set<Id>();
  let ended = false;
  let closing = false;
  const maybeClose = (): void => {
    if (!ended || pending.size > 0 || closing) return;
    closing = true;
    close();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    const id = replyId(message);
    if (id !== undefined && pending.delete(id)) maybeClose();
  };
  stdin.once('end', () => {
    ended = true;
    maybeClose();
  });
}
