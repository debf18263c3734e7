import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderPack } from '../../src/core/behaviour-packs/index.js';
import { packTool } from '../../src/mcp/pack-tool.js';

describe('MCP skill tool (behaviour packs)', () => {
  it('returns the same text as renderPack, marked line_protocol', async () => {
    const r = await packTool().call({ profile: 'teamlead', max_chars: 700 });
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.content, [{ type: 'text', text: renderPack('teamlead', 700).value?.text }]);
    assert.equal(r._meta?.line_protocol, true);
    assert.equal(r._meta?.truncated, true);
    assert.match((r.content[0] as { text: string }).text, /^skill profile=teamlead version=\S+\n/);
  });

  it('defaults to the whole daily pack', async () => {
    const r = await packTool().call({});
    assert.equal((r.content[0] as { text: string }).text, renderPack().value?.text);
  });

  it('INVALID_INPUT for an unknown profile, a non-integer budget or an unknown field', async () => {
    for (const args of [{ profile: 'nightly' }, { max_chars: 'lots' }, { profil: 'daily' }]) {
      const r = await packTool().call(args);
      assert.equal(r.isError, true);
      assert.equal((JSON.parse((r.content[0] as { text: string }).text) as { error: { code: string } }).error.code, 'INVALID_INPUT');
    }
  });

  it('declares the profiles on offer', () => {
    const t = packTool().definition;
    assert.equal(t.name, 'skill');
    assert.deepEqual((t.inputSchema.properties as { profile: { enum: string[] } }).profile.enum, ['daily', 'research', 'strict', 'teamlead']);
  });
});
