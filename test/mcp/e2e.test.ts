import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse } from 'yaml';
import { jcsDigest } from '../../src/core/digest/index.js';
import { dirSkillResolver, publishCapabilities } from '../../src/core/registry/index.js';
import type { AuditEndRecord, AuditRecord } from '../../src/core/run/index.js';
import { writeLock } from '../helpers/run.js';
import { BIN, fixture, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { skillctl } from '../helpers/cli.js';
import { copyBundle, editJson } from '../core/registry/helpers.js';

const SKILL = fixture('registry', 'mcp', 'skills', 'demo.note_stats');
const NOTES = fixture('registry', 'mcp', 'notes');
const WEIGHTS = fixture('registry', 'capabilities', 'valid', 'weights');

/**
 * A project whose lock pins the node skill the `notes` capability's tool is bound to, and whose
 * registry (.skillctl/registry) holds `notes` and the personal-trainer `weights`.
 */
async function project(root: string): Promise<void> {
  cpSync(SKILL, join(root, 'skills', 'demo.note_stats'), { recursive: true });
  const m = parse(readFileSync(join(SKILL, 'skill.yaml'), 'utf8')) as Record<string, string>;
  await writeLock(root, [{ skill_id: m.skill_id, skill_version: m.skill_version, source: 'skills/demo.note_stats', manifest_digest: m.manifest_digest as `sha256:${string}`, content_digest: m.content_digest as `sha256:${string}` }]);
  const r = await publishCapabilities(join(root, '.skillctl', 'registry'), [NOTES, WEIGHTS], { create: true, skills: dirSkillResolver([dirname(SKILL)]) });
  assert.ok(r.published, JSON.stringify(r.diagnostics));
}

async function connect(cwd: string, args: string[] = []): Promise<{ client: Client; changes: () => number; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd,
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'skillctl-e2e', version: '0.0.0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  await client.connect(transport);
  return { client, changes: () => changes, stderr: () => err };
}

function structured(r: CallToolResult): Record<string, unknown> {
  assert.notEqual(r.isError, true, JSON.stringify(r.content));
  return r.structuredContent as Record<string, unknown>;
}

function errorOf(r: CallToolResult): Record<string, unknown> {
  assert.equal(r.isError, true);
  const first = r.content[0];
  return (JSON.parse(first?.type === 'text' ? first.text : '{}') as { error: Record<string, unknown> }).error;
}

const names = async (c: Client): Promise<string[]> => (await c.listTools()).tools.map((t) => t.name);
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 200));

// Malformed, hostile and out-of-order messages, and calls off the schema or of tools not loaded:
// test/security/mcp.test.ts.
describe('skillctl mcp, end to end with the SDK client over stdio', () => {
  // Created while the suite is collected, so it is removed after the suite, not after the hook.
  const root = tempDir('skillctl-mcp-e2e-');
  let s: Awaited<ReturnType<typeof connect>>;
  before(async () => {
    await project(root);
    s = await connect(root);
  });
  after(async () => {
    await s.client.close();
  });

  it('starts with the protocol tools and the behaviour-pack tool only', async () => {
    assert.deepEqual(await names(s.client), ['capability_registry_list', 'capability_skill_load', 'capability_skill_reload', 'skill']);
  });

  it('lists the light index, and matches a message to capabilities', async () => {
    const list = structured(await s.client.callTool({ name: 'capability_registry_list', arguments: {} }) as CallToolResult);
    // The project's registry lies over the shipped one: both are offered.
    assert.deepEqual((list.capabilities as { capability_id: string }[]).map((c) => c.capability_id), ['filesystem', 'git', 'json', 'notes', 'search', 'shell', 'web', 'weights']);
    const match = structured(await s.client.callTool({ name: 'capability_registry_list', arguments: { query: 'I just weighed 187.6 lbs' } }) as CallToolResult);
    const matches = match.matches as { capability_id: string; matched_triggers: { trigger: string }[] }[];
    assert.equal(matches[0]?.capability_id, 'weights');
    assert.equal(matches[0]?.matched_triggers[0]?.trigger, 'weigh-in');
  });

  it('loads two capabilities: each adds its namespaced tools and notifies tools/list_changed', async () => {
    const notes = structured(await s.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'notes' } }) as CallToolResult);
    assert.deepEqual(Object.keys(notes), ['capability_id', 'version', 'skill_doc', 'tools', 'ui_schemas']);
    await s.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'weights' } });
    await settle();
    assert.equal(s.changes(), 2);
    const tools = await names(s.client);
    assert.ok(tools.includes('notes__note_stats'));
    assert.ok(tools.includes('weights__weight_entry_save_batch'));
    const t = (await s.client.listTools()).tools.find((x) => x.name === 'notes__note_stats');
    assert.equal(t?.annotations?.readOnlyHint, true);
    assert.deepEqual(t?.inputSchema.required, ['text']);
  });

  it('calls a read tool: the bound skill runs through the run engine, with an audit record', async () => {
    const r = (await s.client.callTool({ name: 'notes__note_stats', arguments: { text: 'one two\nthree' } })) as CallToolResult;
    assert.deepEqual(structured(r), { lines: 2, words: 3 });
    const audit = readFileSync(join(root, '.skillctl', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; request: { skill_id: string }; result: { status: string } | null });
    assert.deepEqual(audit.map((r) => r.event), ['start', 'end']);
    assert.equal(audit[1]?.request.skill_id, 'demo.note_stats');
    assert.equal(audit[1]?.result?.status, 'ok');
  });

  it('refuses a write tool that requires approval: nothing runs, and the refusal is in the audit log', async () => {
    const args = { rows: [{ measured_at: '2026-01-08T12:00:00Z', weight_lbs: 187.6 }] };
    const e = errorOf((await s.client.callTool({ name: 'weights__weight_entry_save_batch', arguments: args })) as CallToolResult);
    assert.equal(e.code, 'TOOL_APPROVAL_REQUIRED');
    const log = join(root, '.skillctl', 'audit.jsonl');
    const records = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
    assert.deepEqual(records.map((r) => r.event), ['start', 'end', 'end'], 'the note_stats run (start and end), and the refusal');
    const refused = records[2] as AuditEndRecord;
    assert.equal(refused.request.target, 'weights__weight_entry_save_batch');
    assert.equal(refused.request.input_digest, jcsDigest(args));
    assert.equal(refused.policy.decision, 'deny');
    assert.deepEqual(refused.policy.denials.map((d) => [d.scope, d.code]), [['approval:weights__weight_entry_save_batch', 'TOOL_APPROVAL_REQUIRED']]);
    assert.equal(refused.result.status, 'denied');
    assert.equal(refused.result.exit_code, 3);
    assert.equal(refused.result.attempts, 0);
    assert.deepEqual(refused.result.codes, ['TOOL_APPROVAL_REQUIRED']);
    // The record is sealed like a run's: the log still verifies.
    assert.equal(skillctl(['audit', 'verify', log]).code, 0);
  });

  it('a tool with no skill binding answers TOOL_UNBOUND', async () => {
    assert.equal(errorOf((await s.client.callTool({ name: 'weights__weight_entry_list', arguments: {} })) as CallToolResult).code, 'TOOL_UNBOUND');
  });

  it('CAPABILITY_NOT_FOUND with available_capabilities', async () => {
    const e = errorOf((await s.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'sleep_tracking' } })) as CallToolResult);
    assert.deepEqual(e, { code: 'CAPABILITY_NOT_FOUND', message: "No capability found for ID 'sleep_tracking'", available_capabilities: ['filesystem', 'git', 'json', 'notes', 'search', 'shell', 'web', 'weights'] });
  });

  it('a load of a loaded capability comes from the session cache; reload picks up a publish', async () => {
    const dir = copyBundle(WEIGHTS);
    editJson(dir, 'tools.json', (d) => ((d.tools as { description: string }[])[0] as { description: string }).description = 'Newest entries first.');
    const pub = await publishCapabilities(join(root, '.skillctl', 'registry'), [dir], {});
    assert.ok(pub.published);
    const before = s.changes();
    const cached = (await s.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'weights' } })) as CallToolResult;
    assert.match(JSON.stringify(cached.content), /cached/);
    assert.equal(((structured(cached).tools as { description: string }[])[0])?.description, 'List recent weight entries, newest first.');
    await settle();
    assert.equal(s.changes(), before);
    const fresh = (await s.client.callTool({ name: 'capability_skill_reload', arguments: { capability_id: 'weights' } })) as CallToolResult;
    assert.equal(((structured(fresh).tools as { description: string }[])[0])?.description, 'Newest entries first.');
    await settle();
    assert.equal(s.changes(), before + 1);
    const listed = (await s.client.listTools()).tools.find((t) => t.name === 'weights__weight_entry_list');
    assert.match(listed?.description ?? '', /^Newest entries first\./);
  });

  it('with --approve, the approval gate opens for the tools it names', async () => {
    const other = await connect(root, ['--approve', 'weights__weight_entry_save_batch']);
    try {
      await other.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'weights' } });
      const e = errorOf((await other.client.callTool({ name: 'weights__weight_entry_save_batch', arguments: { rows: [{ measured_at: '2026-01-01T08:00:00Z', weight_lbs: 180 }] } })) as CallToolResult);
      assert.equal(e.code, 'TOOL_UNBOUND', 'past the approval gate');
      assert.equal(errorOf((await other.client.callTool({ name: 'weights__weight_entry_delete_batch', arguments: { ids: ['x'] } })) as CallToolResult).code, 'TOOL_APPROVAL_REQUIRED');
    } finally {
      await other.client.close();
    }
  });

  it('--packs: the skill tool also offers the operator packs', async () => {
    const withPacks = await connect(root, ['--packs', fixture('packs', 'operator', 'valid'), '--no-audit']);
    try {
      const tool = (await withPacks.client.listTools()).tools.find((t) => t.name === 'skill');
      const profiles = (tool?.inputSchema.properties?.profile as { enum?: string[] } | undefined)?.enum ?? [];
      assert.deepEqual([...profiles].sort(), ['acme-oncall', 'daily', 'release-captain', 'research', 'strict', 'teamlead']);
      const r = (await withPacks.client.callTool({ name: 'skill', arguments: { profile: 'release-captain' } })) as CallToolResult;
      const first = r.content[0];
      assert.ok(first?.type === 'text' && first.text.startsWith('skill profile=release-captain '), JSON.stringify(first));
    } finally {
      await withPacks.client.close();
    }
  });

  it('a client that writes its requests and closes stdin at once gets every reply before the server exits', () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capability_skill_load', arguments: { capability_id: 'notes' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'notes__note_stats', arguments: { text: 'a b c' } } },
    ];
    const r = skillctl(['mcp', '--no-audit'], { cwd: root, input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    // Replies, not the tools/list_changed notification the load sends.
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id?: number; result?: { structuredContent?: unknown } }).filter((m) => m.id !== undefined);
    assert.deepEqual(replies.map((m) => m.id).sort(), [1, 2, 3]);
    // Every request has its reply, whatever each answers (the call may arrive before the load is done).
    assert.deepEqual(Object.keys(replies.find((m) => m.id === 2)?.result ?? {}).includes('content'), true);
    assert.ok(replies.some((m) => m.id === 3));
  });

  it('--packs with a malformed pack: the server does not start, and says why', () => {
    const r = skillctl(['mcp', '--packs', fixture('packs', 'operator', 'invalid', 'reserved'), '--no-audit'], { cwd: root, input: '' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /PACK_PROFILE_RESERVED/);
    assert.equal(r.stdout, '');
  });

  it('the shipped registry: a built-in read tool runs under the default policy, outside reads are denied', async () => {
    writeFileSync(join(root, 'hello.txt'), 'hello from the project\n');
    const shipped = await connect(root, ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit']);
    try {
      await shipped.client.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'filesystem' } });
      const r = structured((await shipped.client.callTool({ name: 'filesystem__fs_read_text', arguments: { path: 'hello.txt' } })) as CallToolResult);
      assert.equal(r.text, 'hello from the project\n');
      assert.equal(r.truncated, false);
      const denied = errorOf((await shipped.client.callTool({ name: 'filesystem__fs_read_text', arguments: { path: '/etc/hostname' } })) as CallToolResult);
      assert.equal(denied.status, 'denied');
      assert.equal(errorOf((await shipped.client.callTool({ name: 'filesystem__fs_write_patch', arguments: { unified_diff: 'x' } })) as CallToolResult).code, 'TOOL_APPROVAL_REQUIRED');
    } finally {
      await shipped.client.close();
    }
  });
});
