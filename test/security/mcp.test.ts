// Threat: MCP input (an agent, or a prompt steering one, sends skillctl mcp malformed, huge, out-of-order or hostile messages).
// The real server over stdio, spoken to on the wire: lines that are not JSON, batches, the wrong
// protocol version, unknown methods, missing params, calls of tools not loaded, arguments off the
// schema or with a `__proto__` key, reads outside the grant, writes needing approval, answers to
// requests never made, cancellations of nothing, a second initialize, duplicate ids, a burst of
// 60 calls at once, a 9 MB argument, a 9 MB query to match and an 11 MB line without an end. Each is answered with its
// JSON-RPC error JSON-RPC 2.0 names (-32700 or -32600 with id null when the id cannot be told,
// -32602 with one sentence for params off their schema, duplicate keys, `__proto__` or nesting
// past 64 levels), or the tool's error code, or ignored (responses and notifications are never
// answered), and the session goes on (the next request is answered, the server exits 0 when the
// client leaves). A line past the 10 MiB bound is answered once and skipped, never buffered past
// the bound.
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
const call = (w: McpWire, name: string, args: unknown, ms?: number): Promise<Message> => w.request('tools/call', { name, arguments: args }, ms);

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

  /** Sends one line and returns the one answer it gets (by id, or the id-null answer), then checks the session still answers. */
  const answerTo = async (line: string | Buffer, id: unknown = null): Promise<Message> => {
    const before = w.messages.length;
    w.send(line);
    // An answer with an id may come after the ping's (its check can take longer); one with id null
    // is written when the line is read, before the ping is.
    if (id !== null) await w.answer(id);
    await alive();
    const got = w.messages.slice(before).filter((m) => m.method === undefined && m.id === id);
    assert.equal(got.length, 1, JSON.stringify(w.messages.slice(before)));
    return got[0] as Message;
  };

  for (const [what, line, code, message] of [
    ['a line that is not JSON', '{"jsonrpc":"2.0","id":1,"method":', -32700, /^Parse error: /],
    ['two messages on one line', '{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}', -32700, /^Parse error: Unexpected non-whitespace character after JSON/],
    ['a line of invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), -32700, /^Parse error: the message is not valid UTF-8$/],
    ['a JSON-RPC batch', '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]', -32600, /^Invalid Request: a batch \(a JSON array\) is not supported by MCP/],
    ['an empty batch', '[]', -32600, /^Invalid Request: a batch/],
    ['a request whose id is an object', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', -32600, /^Invalid Request: id must be a string or an integer, not an object$/],
    ['a request whose id is an array', '{"jsonrpc":"2.0","id":[1],"method":"tools/list"}', -32600, /^Invalid Request: id must be a string or an integer, not an array$/],
    ['a request whose id is a fraction', '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', -32600, /^Invalid Request: id must be a string or an integer, not a fractional number$/],
    ['a message that is a number', '42', -32600, /^Invalid Request: a message must be a JSON object, not an integer$/],
  ] as const) {
    it(`${what}: ${code} with id null, the session goes on`, async () => {
      const m = await answerTo(line);
      assert.equal(m.jsonrpc, '2.0');
      assert.equal(m.error?.code, code);
      assert.match(m.error?.message ?? '', message);
    });
  }

  for (const [what, line, id, code, message] of [
    ['a request of JSON-RPC 1.0', '{"jsonrpc":"1.0","id":4,"method":"tools/list"}', 4, -32600, 'Invalid Request: jsonrpc must be "2.0", not "1.0"'],
    ['a request without jsonrpc', '{"id":5,"method":"tools/list"}', 5, -32600, 'Invalid Request: jsonrpc must be "2.0", not missing'],
    ['params as an array', '{"jsonrpc":"2.0","id":6,"method":"tools/list","params":[1]}', 6, -32602, 'Invalid params: params must be an object (MCP names its parameters), not an array'],
    ['tools/call with arguments a string', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"capability_registry_list","arguments":"x"}}', 7, -32602, 'Invalid params: tools/call: params.arguments must be an object, not a string'],
    ['tools/call with a number for name', '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":123}}', 8, -32602, 'Invalid params: tools/call: params.name must be a string, not an integer'],
    ['tools/call without params', '{"jsonrpc":"2.0","id":9,"method":"tools/call"}', 9, -32602, 'Invalid params: tools/call: params is required (an object)'],
    ['arguments with a key twice', '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"capability_skill_load","arguments":{"capability_id":"git","capability_id":"filesystem"}}}', 10, -32602, 'Invalid params: params.arguments has the key "capability_id" twice'],
    ['arguments with the id hidden in __proto__', '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"capability_skill_load","arguments":{"__proto__":{"capability_id":"filesystem"}}}}', 11, -32602, 'Invalid params: params.arguments has a __proto__ key, which is refused'],
    ['__proto__ spelt with an escape', '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"capability_skill_load","arguments":{"\\u005f_proto__":{}}}}', 12, -32602, 'Invalid params: params.arguments has a __proto__ key, which is refused'],
    ['arguments nested 100,000 arrays deep', `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"capability_skill_load","arguments":{"capability_id":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`, 14, -32602, 'Invalid params: params.arguments.capability_id[0][0]'],
    // Matching costs a stem for every run of one to three words: 9 MB of words held the server
    // 28 s (no other request answered) until the stop of 2026-11-30.
    ['a 9 MB query to match', `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"capability_registry_list","arguments":{"query":"${'weigh file '.repeat(900_000)}"}}}`, 15, -32602, 'Invalid params: arguments of capability_registry_list: '],
    ['an argument the schema does not allow', '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"capability_skill_load","arguments":{"capability_id":"filesystem","extra":1}}}', 13, -32602, 'Invalid params: arguments of capability_skill_load: property `extra` is not allowed (at arguments/extra)'],
  ] as const) {
    it(`${what}: ${code} with its id, one sentence, the session goes on`, async () => {
      const m = await answerTo(line, id);
      assert.equal(m.error?.code, code);
      assert.ok(m.error?.message.startsWith(message), m.error?.message);
      assert.ok(!m.error?.message.includes('\n') && !m.error?.message.includes('MCP error'), m.error?.message);
    });
  }

  for (const [what, line] of [
    ['an answer to a request never made', '{"jsonrpc":"2.0","id":424242,"result":{}}'],
    ['a cancellation of a request never made', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":31337}}'],
    ['a notification with params as an array', '{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}'],
  ] as const) {
    it(`${what}: ignored (JSON-RPC answers no notification or response), the session goes on`, async () => {
      const before = w.messages.length;
      w.send(line);
      await alive();
      assert.deepEqual(w.messages.slice(before).map((m) => m.id), [w.messages.at(-1)?.id], 'the ping alone was answered');
    });
  }

  it("the skill tool with arguments that are not an object: the tool's INVALID_INPUT, as its seed asks", async () => {
    assert.equal(toolError(await answerTo('{"jsonrpc":"2.0","id":"skill-x","method":"tools/call","params":{"name":"skill","arguments":"x"}}', 'skill-x')).code, 'INVALID_INPUT');
  });

  it('a load and a call of its tool sent back to back: the call sees the load', async () => {
    w.send({ jsonrpc: '2.0', id: 'load-git', method: 'tools/call', params: { name: 'capability_skill_load', arguments: { capability_id: 'git' } } });
    w.send({ jsonrpc: '2.0', id: 'call-git', method: 'tools/call', params: { name: 'git__git_status', arguments: {} } });
    const r = await w.answer('call-git');
    assert.equal(r.error, undefined, JSON.stringify(r));
  });

  for (const [what, method, params, code] of [
    ['an unknown method', 'resources/nope', undefined, -32601],
    ['a call of a tool whose capability is not loaded', 'tools/call', { name: 'shell__nope', arguments: {} }, -32602],
    ['capability_skill_load with a number for its id', 'tools/call', { name: 'capability_skill_load', arguments: { capability_id: 7 } }, -32602],
  ] as const) {
    it(`${what}: JSON-RPC error ${code}, the session goes on`, async () => {
      const m = await w.request(method, params);
      assert.equal(m.error?.code, code);
      assert.ok(!m.error.message.includes('MCP error'), m.error.message);
      await alive();
    });
  }

  for (const [what, name, args, code] of [
    ['a read of the sentinel, outside the grant', 'filesystem__fs_read_text', () => ({ path: join(s.outside, 'secret.txt') }), 'POLICY_PATH_DENIED'],
    ["a write that needs the user's approval", 'filesystem__fs_write_patch', () => ({ unified_diff: '--- /dev/null\n+++ b/pwned\n@@ -0,0 +1 @@\n+x\n' }), 'TOOL_APPROVAL_REQUIRED'],
    ['a 9 MB argument', 'filesystem__fs_read_text', () => ({ path: 'x'.repeat(9_000_000) }), 'RUN_INPUT_INVALID'],
  ] as const) {
    it(`${what}: the tool's error ${code}, nothing ran, the session goes on`, async () => {
      assert.equal(toolError(await call(w, name, args())).code, code);
      await alive();
    });
  }

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
      // Fifteen rounds of four runs: the last answer waits for all before it, so its guard is the
      // burst's, not one call's (a loaded machine took more than the 15 s one call is given).
      const answers = await Promise.all(Array.from({ length: 60 }, () => call(w, 'filesystem__fs_read_text', { path: 'hello.txt' }, 120_000)));
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

describe('MCP input: a line past the transport bound is answered and skipped; the session goes on', () => {
  const s = scratch('skillctl-attack-mcp-huge-');

  it('an 11 MB line: -32600 with id null once, its bytes never buffered past the bound, and the next request is answered', async () => {
    const w = await McpWire.start(s.work, ARGS);
    w.send('x'.repeat(11 * 1024 * 1024));
    w.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    assert.deepEqual((await w.answer('after')).result, {});
    const errors = w.messages.filter((m) => m.id === null);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.error?.code, -32600);
    assert.match(errors[0]?.error?.message ?? '', /^Invalid Request: a message is limited to 10485760 bytes; this one was skipped up to its end of line$/);
    assert.equal(await w.close(), 0);
  });
});

describe('MCP input: before initialize', () => {
  const s = scratch('skillctl-attack-mcp-early-');

  it('tools/call before initialize: -32600, nothing runs; ping is answered, and after initialize the call is served', async () => {
    const w = McpWire.spawn(s.work, ARGS);
    w.send({ jsonrpc: '2.0', id: 'early', method: 'tools/call', params: { name: 'capability_registry_list', arguments: {} } });
    const early = await w.answer('early');
    assert.equal(early.error?.code, -32600);
    assert.equal(early.error?.message, 'Invalid Request: tools/call before initialize; the session starts with an initialize request');
    assert.deepEqual((await w.request('ping')).result, {});
    await w.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late', version: '0' } });
    const r = await w.request('tools/call', { name: 'capability_registry_list', arguments: {} });
    assert.equal(r.error, undefined);
    assert.equal(await w.close(), 0);
  });
});

describe('MCP start: an audit log that cannot be opened', () => {
  const s = scratch('skillctl-attack-mcp-audit-');

  it('refuses to start: AUDIT_UNWRITABLE, exit 2, nothing on stdout', async () => {
    // A file where the log's directory would be: the log cannot be created.
    await writeFile(join(s.work, 'blocker'), '');
    const w = McpWire.spawn(s.work, ['--registry', join(ROOT, 'manifests', 'registry'), '--audit', join(s.work, 'blocker', 'audit.jsonl')]);
    assert.equal(await w.exited, 2);
    assert.match(w.stderr, /AUDIT_UNWRITABLE/);
    assert.deepEqual(w.messages, []);
  });
});
