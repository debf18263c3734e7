import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Sha256Digest } from '../../src/core/digest/index.js';
import { bundleDigest, bundleDir, INDEX_FILE, publishCapabilities, readCapabilityFiles } from '../../src/core/registry/index.js';
import { parseApproval, Session } from '../../src/mcp/session.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { copyBundle, editJson, editText } from '../core/registry/helpers.js';

const VALID = (n: string): string => fixture('registry', 'capabilities', 'valid', n);

async function registry(): Promise<string> {
  const reg = join(tempDir('skillctl-mcp-'), 'reg');
  const r = await publishCapabilities(reg, [VALID('weights'), VALID('workouts')], { create: true });
  assert.ok(r.published);
  return reg;
}

describe('MCP session', () => {
  it('loading adds namespaced tools; a second load comes from the cache', async () => {
    const s = new Session(await registry());
    const first = await s.load('weights');
    assert.ok(first.ok && !first.cached);
    assert.deepEqual(first.ok && first.tools, ['weights__weight_entry_list', 'weights__weight_entry_get', 'weights__weight_entry_save_batch', 'weights__weight_entry_delete_batch']);
    const again = await s.load('weights');
    assert.ok(again.ok && again.cached);
    await s.load('workouts');
    assert.deepEqual(s.loaded, ['weights', 'workouts']);
    assert.equal(s.tools().length, 4 + 6);
    assert.equal(s.find('workouts__exercise_search')?.tool.name, 'exercise_search');
    assert.equal(s.find('exercise_search'), undefined);
  });

  it('the cache holds until reload; reload picks up a new publish, and keeps the old one when it fails', async () => {
    const reg = await registry();
    const s = new Session(reg);
    await s.load('weights');
    const dir = copyBundle(VALID('weights'));
    editJson(dir, 'capability.json', (d) => (d.name = 'Body weight'));
    editJson(dir, 'tools.json', (d) => (d.tools as unknown[]).pop());
    editText(dir, 'skill.md', (t) => t.replace(/^- `weight_entry_delete_batch`.*\n/m, ''));
    assert.equal((await publishCapabilities(reg, [dir], {})).published, true);
    const cached = await s.load('weights');
    assert.equal(cached.ok && cached.bundle.tools.length, 4);
    const fresh = await s.load('weights', true);
    assert.ok(fresh.ok && !fresh.cached);
    assert.equal(s.tools().length, 3);
    const gone = await s.load('nope', true);
    assert.equal(gone.ok ? undefined : gone.error.code, 'CAPABILITY_NOT_FOUND');
    assert.equal(s.tools().length, 3);
  });

  it('list reads the registry afresh; match ranks', async () => {
    const reg = await registry();
    const s = new Session(reg);
    assert.deepEqual((await s.list()).ok && (await s.list() as { capabilities: { capability_id: string }[] }).capabilities.map((c) => c.capability_id), ['weights', 'workouts']);
    await publishCapabilities(reg, [VALID('meals')], {});
    const after = await s.list();
    assert.deepEqual(after.ok && after.capabilities.map((c) => c.capability_id), ['meals', 'weights', 'workouts']);
    const m = await s.match('I just weighed 187.6 lbs');
    assert.deepEqual(m.ok && m.matches.map((x) => x.capability_id), ['weights']);
    const broken = new Session(join(tempDir(), 'none'));
    assert.equal((await broken.list()).ok, false);
  });

  it('approval: reads and unguarded writes run; approval writes only when granted by all, capability or tool name', async () => {
    const reg = await registry();
    const grant = async (mode: string[]): Promise<boolean[]> => {
      const s = new Session(reg, parseApproval(mode));
      await s.load('weights');
      return ['weights__weight_entry_list', 'weights__weight_entry_save_batch', 'weights__weight_entry_delete_batch'].map((n) => s.approvalRefusal(s.find(n) as never) === undefined);
    };
    assert.deepEqual(await grant([]), [true, false, false]);
    assert.deepEqual(await grant(['all']), [true, true, true]);
    assert.deepEqual(await grant(['weights']), [true, true, true]);
    assert.deepEqual(await grant(['weights__weight_entry_save_batch']), [true, true, false]);
    assert.deepEqual(await grant(['workouts, weight_entry_save_batch']), [true, false, false]);
  });
});

describe('MCP session: tool argument schemas', () => {
  it('arguments are checked against args_schema, additionalProperties included', async () => {
    const s = new Session(await registry());
    assert.ok((await s.load('weights')).ok);
    const t = s.find('weights__weight_entry_get');
    assert.ok(t !== undefined);
    assert.deepEqual(s.checkArgs(t, { id: 'w1' }), []);
    const extra = s.checkArgs(t, { id: 'w1', sneaky: true });
    assert.equal(extra[0]?.code, 'SCHEMA_VALUE_INVALID');
    assert.match(extra[0]?.message ?? '', /sneaky/);
  });

  it('a capability whose args_schema cannot be compiled (a $ref to nothing) is not loaded: SKILL_MALFORMED with TOOL_SCHEMA_INVALID, and no tool is offered', async () => {
    // publish refuses such a schema, so the registry is altered after publishing, its index kept
    // consistent (the digest and directory recomputed), as a hand-edited registry would be.
    const reg = await registry();
    const indexPath = join(reg, INDEX_FILE);
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { capabilities: { capability_id: string; digest: Sha256Digest }[] };
    const entry = index.capabilities.find((c) => c.capability_id === 'weights');
    assert.ok(entry !== undefined);
    const dir = bundleDir(reg, entry);
    const toolsPath = join(dir, 'tools.json');
    const tools = JSON.parse(readFileSync(toolsPath, 'utf8')) as { tools: { args_schema: unknown }[] };
    (tools.tools[0] as { args_schema: unknown }).args_schema = { type: 'object', properties: { limit: { $ref: '#/$defs/missing' } } };
    writeFileSync(toolsPath, JSON.stringify(tools));
    entry.digest = bundleDigest((await readCapabilityFiles(dir, '')).bytes);
    renameSync(dir, bundleDir(reg, entry));
    writeFileSync(indexPath, JSON.stringify(index));
    const s = new Session(reg);
    const r = await s.load('weights');
    assert.equal(r.ok, false, JSON.stringify(r).slice(0, 300));
    assert.equal(r.ok ? undefined : r.error.code, 'SKILL_MALFORMED');
    assert.deepEqual(r.ok || !('findings' in r.error) ? [] : r.error.findings.map((f) => [f.code, f.tool]), [['TOOL_SCHEMA_INVALID', 'weight_entry_list']]);
    assert.deepEqual(s.tools(), []);
    assert.deepEqual(s.loaded, []);
  });
});
