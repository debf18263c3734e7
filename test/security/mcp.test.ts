// Threat: MCP input (an agent, or a prompt steering one, sends skillctl mcp malformed, huge, out-of-order or hostile messages).
// The real server over stdio, spoken to on the wire: lines that are not JSON, batches, the wrong
// protocol version, unknown methods, missing params, calls of tools not loaded, arguments off the
// schema or with a `__proto__` key, reads outside the grant, writes needing approval, answers to
// requests never made, cancellations of nothing, a second initialize, duplicate ids, a burst of
// 60 calls at once, a 9 MB argument and an 11 MB line without an end. Each is answered with its
// JSON-RPC error code or the tool's error code, or ignored, and the session goes on (the next
// request is answered, the server exits 0 when the client leaves) — except the line past the
// transport's 10 MiB bound, which ends the session at once rather than grow without bound.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { scratch, SECRET, treeState } from '../helpers/attack.js';
import { McpWire, type Message } from '../helpers/mcp-wire.js';
import { ROOT } from '../helpers/paths.js';

/** The shipped registry (built-in skills under the default policy: read inside the working directory). */
const ARGS = ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit'];

/** The tool result's error (an `isError` result carries `{error}` as its text). */
function toolError(m: Message): { code: string; status?: string } {
  const result = m.result as { isError?: boolean; content: { text: string }[] } | undefined;
  assert.equal(result?.isError, true, JSON.stringify(m).slice(0, 500));
  return (JSON.parse(result.content[0]?.text ?? '{}') as { error: { code: string; status?: string } }).error;
}
const call = (w: McpWire, name: string, args: unknown): Promise<Message> => w.request('tools/call', { name, arguments: args });

describe('MCP input: the server answers or ignores each hostile message, and the session goes on', () => {
  const s = scratch('skillctl-attack-mcp-');
  let w: McpWire;
  let sentinel: Map<string, string>;
  before(async () => {
    await writeFile(join(s.work, 'hello.txt'), 'hello\n');
    sentinel = await treeState(s.outside);
    w = await McpWire.start(s.work, ARGS);
    const loaded = await call(w, 'capability_skill_load', { capability_id: 'filesystem' });
    assert.notEqual((loaded.result as { isError?: boolean }).isError, true);
  });

  /** The session still answers: a ping. */
  const alive = async (): Promise<void> => assert.deepEqual((await w.request('ping')).result, {});

  for (const [what, line] of [
    ['a line that is not JSON', '{"jsonrpc":"2.0","id":1,"method":'],
    ['a JSON-RPC batch', '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]'],
    ['a request of JSON-RPC 1.0', '{"jsonrpc":"1.0","id":4,"method":"tools/list"}'],
    ['a request whose id is an object', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}'],
    ['an answer to a request never made', '{"jsonrpc":"2.0","id":424242,"result":{}}'],
    ['a cancellation of a request never made', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":31337}}'],
    ['a line of invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ] as const) {
    it(`${what}: ignored (no answer), the session goes on`, async () => {
      const before = w.messages.length;
      w.send(line);
      await alive();
      assert.deepEqual(w.messages.slice(before).map((m) => m.id), [w.messages.at(-1)?.id], 'the ping alone was answered');
    });
  }

  for (const [what, method, params, code] of [
    ['an unknown method', 'resources/nope', undefined, -32601],
    ['tools/call without params', 'tools/call', undefined, -32603],
    ['a call of a tool whose capability is not loaded', 'tools/call', { name: 'git__git_status', arguments: {} }, -32602],
    ['capability_skill_load with a number for its id', 'tools/call', { name: 'capability_skill_load', arguments: { capability_id: 7 } }, -32602],
    ['capability_skill_load with the id hidden in __proto__', 'tools/call', JSON.parse('{"name":"capability_skill_load","arguments":{"__proto__":{"capability_id":"filesystem"}}}') as unknown, -32602],
  ] as const) {
    it(`${what}: JSON-RPC error ${code}, the session goes on`, async () => {
      assert.equal((await w.request(method, params)).error?.code, code);
      await alive();
    });
  }

  for (const [what, name, args, code] of [
    ['arguments off the input schema', 'filesystem__fs_read_text', () => ({ path: 7 }), 'RUN_INPUT_INVALID'],
    ['a read of the sentinel, outside the grant', 'filesystem__fs_read_text', () => ({ path: join(s.outside, 'secret.txt') }), 'POLICY_PATH_DENIED'],
    ["a write that needs the user's approval", 'filesystem__fs_write_patch', () => ({ unified_diff: '--- /dev/null\n+++ b/pwned\n@@ -0,0 +1 @@\n+x\n' }), 'TOOL_APPROVAL_REQUIRED'],
    ['a 9 MB argument', 'filesystem__fs_read_text', () => ({ path: 'x'.repeat(9_000_000) }), 'RUN_INPUT_INVALID'],
  ] as const) {
    it(`${what}: the tool's error ${code}, nothing ran, the session goes on`, async () => {
      assert.equal(toolError(await call(w, name, args())).code, code);
      await alive();
    });
  }

  it('arguments with a __proto__ key: the key never reaches the skill, which reads what the own keys say', async () => {
    w.send('{"jsonrpc":"2.0","id":"proto","method":"tools/call","params":{"name":"filesystem__fs_read_text","arguments":{"path":"hello.txt","__proto__":{"path":"SENTINEL"}}}}'.replace('SENTINEL', join(s.outside, 'secret.txt')));
    const r = (await w.answer('proto')).result as { structuredContent: { text: string } };
    assert.equal(r.structuredContent.text, 'hello\n');
  });

  it('a second initialize, and two requests in flight with one id: each answered, the session goes on', async () => {
    assert.equal(((await w.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'again', version: '0' } })).result as { serverInfo: { name: string } }).serverInfo.name, 'skillctl');
    const before = w.messages.length;
    w.send({ jsonrpc: '2.0', id: 'twice', method: 'tools/list' });
    w.send({ jsonrpc: '2.0', id: 'twice', method: 'tools/list' });
    await alive();
    for (let i = 0; i < 100 && w.messages.slice(before).filter((m) => m.id === 'twice').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(w.messages.slice(before).filter((m) => m.id === 'twice').length, 2);
  });

  it('a burst of 60 tool calls at once: each answered, the runs never all at once (their threads counted)', async () => {
    const threads = (): number => readdirSync(`/proc/${w.pid}/task`).length;
    const base = threads();
    let peak = base;
    const watch = setInterval(() => (peak = Math.max(peak, threads())), 10);
    try {
      const answers = await Promise.all(Array.from({ length: 60 }, () => call(w, 'filesystem__fs_read_text', { path: 'hello.txt' })));
      assert.deepEqual(new Set(answers.map((a) => (a.result as { structuredContent?: { text: string } }).structuredContent?.text)), new Set(['hello\n']));
    } finally {
      clearInterval(watch);
    }
    // A built-in runs in a worker thread of its own: at most 4 runs, so a handful of threads more.
    assert.ok(peak - base <= 12, `${peak - base} threads more than before the burst`);
  });

  it('after all of it, the client leaves: the server exits 0, wrote only JSON-RPC, and nothing outside the scratch folder changed', async () => {
    assert.equal(await w.close(), 0);
    assert.deepEqual(w.garbage, []);
    assert.ok(!JSON.stringify(w.messages).includes(SECRET), 'the sentinel secret never left the server');
    assert.deepEqual(await treeState(s.outside), sentinel);
  });
});

describe('MCP input: a line past the transport bound ends the session, it does not grow', () => {
  const s = scratch('skillctl-attack-mcp-huge-');

  it('an 11 MB line without an end: the server stops reading and exits 0 at once, answering nothing after it', async () => {
    const w = await McpWire.start(s.work, ARGS);
    const t0 = Date.now();
    w.send('x'.repeat(11 * 1024 * 1024), true);
    w.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    assert.equal(await w.exited, 0);
    assert.ok(Date.now() - t0 < 10_000, `exited after ${Date.now() - t0} ms`);
    assert.ok(!w.messages.some((m) => m.id === 'after'));
  });
});
