import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LineReadBuffer, withLinearReads } from '../../../src/core/mcp-skills/line-buffer.js';

const ping = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

function drain(b: LineReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let m = b.readMessage(); m !== null; m = b.readMessage()) out.push(m);
  return out;
}

describe('LineReadBuffer: the stdio client transport reading messages a line each', () => {
  it('messages split across pieces, several in one piece, CRLF endings', () => {
    const b = new LineReadBuffer(1024);
    const text = `${ping(1)}\n${ping(2)}\r\n${ping(3)}\n`;
    for (const piece of [text.slice(0, 5), text.slice(5, 40), text.slice(40)]) b.append(Buffer.from(piece));
    assert.deepEqual(drain(b), [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
  });

  it('a line not yet ended is no message; it is one once its newline comes', () => {
    const b = new LineReadBuffer(1024);
    b.append(Buffer.from(ping(7)));
    assert.equal(b.readMessage(), null);
    b.append(Buffer.from('\n'));
    assert.deepEqual(drain(b), [{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
  });

  it('a line that is not a message throws when read, and the next one is read after it', () => {
    const b = new LineReadBuffer(1024);
    b.append(Buffer.from(`not json\n${ping(4)}\n`));
    assert.throws(() => b.readMessage(), SyntaxError);
    assert.deepEqual(drain(b), [{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });

  it('a line past the bound throws the message the connection recognises, and nothing is held after it', () => {
    const b = new LineReadBuffer(64);
    b.append(Buffer.from(`${ping(1)}\n`));
    assert.throws(() => b.append(Buffer.alloc(65, 0x61)), /^Error: ReadBuffer exceeded maximum size of 64 bytes$/);
    assert.equal(b.readMessage(), null);
    // Ended within the same piece, a long line is refused all the same.
    assert.throws(() => b.append(Buffer.from(`${'a'.repeat(65)}\n`)), /exceeded maximum size of 64 bytes/);
  });

  it('a line of 32 MiB in 64 KiB pieces: each piece kept as it came, joined once', () => {
    const max = 32 * 1024 * 1024;
    const b = new LineReadBuffer(max);
    const body = `{"jsonrpc":"2.0","id":1,"result":{"text":"${'a'.repeat(max - 64)}"}}`;
    const bytes = Buffer.from(`${body}\n`);
    const start = process.cpuUsage();
    for (let at = 0; at < bytes.length; at += 65536) b.append(bytes.subarray(at, at + 65536));
    const [m] = drain(b) as [{ result: { text: string } }];
    assert.equal(m.result.text.length, max - 64);
    const { user, system } = process.cpuUsage(start);
    // The SDK's buffer copied everything held at each piece: 8 GB for this line, about 30 s.
    assert.ok(user + system < 5_000_000, `reading the line took ${((user + system) / 1e6).toFixed(1)} s of CPU`);
  });

  it("is put in place of the SDK's buffer, or says that the SDK changed", () => {
    const t = withLinearReads(new StdioClientTransport({ command: 'true' }), 1024);
    assert.ok((t as unknown as { _readBuffer: unknown })._readBuffer instanceof LineReadBuffer);
    const renamed = new StdioClientTransport({ command: 'true' });
    delete (renamed as unknown as { _readBuffer?: unknown })._readBuffer;
    assert.throws(() => withLinearReads(renamed, 1024), /no longer keeps its read buffer in _readBuffer/);
  });
});
