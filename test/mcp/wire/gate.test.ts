// Requests the gate answers itself (GateRules.direct: resources/read of a skill file, past the
// SDK's dispatch) get the answer the SDK would give: the result; a thrown error as {code, message,
// data?} (a code that is not an integer becomes -32603); no reply once cancelled. Nothing is
// answered directly before initialize. Driven through the SDK's in-memory transport pair.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GatedTransport } from '../../../src/mcp/wire/gate.js';
import { RpcError } from '../../../src/mcp/wire/errors.js';

interface Wire {
  send(m: object): Promise<void>;
  /** The next message the client receives, or 'none' within 50 ms. */
  next(): Promise<JSONRPCMessage | 'none'>;
  /** What reached the server behind the gate. */
  passed: JSONRPCMessage[];
}

async function wire(direct: (method: string, params: Record<string, unknown> | undefined) => Promise<object> | undefined): Promise<Wire> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const gate = new GatedTransport(server, { schemas: new Map(), direct });
  const passed: JSONRPCMessage[] = [];
  gate.onmessage = (m) => void passed.push(m);
  const inbox: JSONRPCMessage[] = [];
  client.onmessage = (m) => void inbox.push(m);
  await gate.start();
  await client.start();
  return {
    send: (m) => client.send(m as JSONRPCMessage),
    async next() {
      for (let i = 0; i < 10 && inbox.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      return inbox.shift() ?? 'none';
    },
    passed,
  };
}

const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };
const read = (id: number, uri: string): object => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });

describe('GatedTransport: requests answered directly', () => {
  it('the result, or the thrown error as the SDK answers it; nothing directly before initialize', async () => {
    const w = await wire((method, params) => {
      if (method !== 'resources/read') return undefined;
      if (params?.uri === 'skill://a/SKILL.md') return Promise.resolve({ contents: [{ uri: 'skill://a/SKILL.md', text: 'x' }] });
      if (params?.uri === 'skill://gone') return Promise.reject(new RpcError(-32002, 'Resource not found: skill://gone', { uri: 'skill://gone' }));
      return Promise.reject(Object.assign(new Error('odd'), { code: 1.5 }));
    });
    await w.send(read(1, 'skill://a/SKILL.md'));
    assert.deepEqual(await w.next(), { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid Request: resources/read before initialize; the session starts with an initialize request' } });
    await w.send(init);
    assert.equal(w.passed.length, 1);
    await w.send(read(2, 'skill://a/SKILL.md'));
    assert.deepEqual(await w.next(), { jsonrpc: '2.0', id: 2, result: { contents: [{ uri: 'skill://a/SKILL.md', text: 'x' }] } });
    await w.send(read(3, 'skill://gone'));
    assert.deepEqual(await w.next(), { jsonrpc: '2.0', id: 3, error: { code: -32002, message: 'Resource not found: skill://gone', data: { uri: 'skill://gone' } } });
    await w.send(read(4, 'skill://odd'));
    assert.deepEqual(await w.next(), { jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'odd' } });
    // Requests the rule declines reach the server.
    await w.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    assert.deepEqual(w.passed.map((m) => ('method' in m ? m.method : '')), ['initialize', 'ping']);
  });

  it('a cancelled request gets no reply; another of the same id in flight still does', async () => {
    const waiting: ((v: object) => void)[] = [];
    const w = await wire((method) => (method === 'resources/read' ? new Promise<object>((r) => waiting.push(r)) : undefined));
    await w.send(init);
    await w.send(read(7, 'skill://a/SKILL.md'));
    await w.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    await w.send(read(7, 'skill://a/other.md'));
    (waiting[0] as (v: object) => void)({ contents: [] });
    (waiting[1] as (v: object) => void)({ contents: [{ uri: 'skill://a/other.md', text: 'y' }] });
    assert.deepEqual(await w.next(), { jsonrpc: '2.0', id: 7, result: { contents: [{ uri: 'skill://a/other.md', text: 'y' }] } });
    assert.equal(await w.next(), 'none');
  });
});
