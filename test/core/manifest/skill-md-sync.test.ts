// SKILL_MD_STALE (docs/codes.md): a SKILL.md that convert wrote, compared with the manifest it
// was written from; one written by hand is the author's and is never compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memorySource } from '../../../src/core/bundle/index.js';
import { checkSkillMdSync } from '../../../src/core/manifest/skill-md-sync.js';

const CONVERTED = `---
name: wc
description: Count words. Use when asked.
metadata:
  skillctl.skill_id: wc
  skillctl.skill_version: 0.1.0
---

# wc
`;

async function check(skillMd: string, data: Record<string, unknown>): Promise<[string, string | undefined, number | undefined][]> {
  const source = memorySource([{ path: 'SKILL.md', data: Buffer.from(skillMd), mode: '0644' }], 'wc');
  const { files } = await source.list();
  const found = await checkSkillMdSync({ source, files, data, label: 'wc' });
  return found.map((d) => [d.code, d.message, d.line]);
}

describe('checkSkillMdSync', () => {
  it('nothing when SKILL.md agrees with the manifest', async () => {
    assert.deepEqual(await check(CONVERTED, { skill_id: 'wc', skill_version: '0.1.0', description: 'Count words. Use when asked.' }), []);
  });

  it('a new version, id or description: one finding each, at the line in SKILL.md', async () => {
    assert.deepEqual(await check(CONVERTED, { skill_id: 'wc2', skill_version: '0.2.0', description: 'Count words fast.' }), [
      ['SKILL_MD_STALE', 'SKILL.md was written by skillctl convert for skill_id wc; the manifest now says wc2', 5],
      ['SKILL_MD_STALE', 'SKILL.md was written by skillctl convert for skill_version 0.1.0; the manifest now says 0.2.0', 6],
      ['SKILL_MD_STALE', "SKILL.md was written by skillctl convert; its description is no longer the manifest's", 3],
    ]);
  });

  it('a SKILL.md written by hand (no skillctl metadata), or without frontmatter, is not compared', async () => {
    const byHand = CONVERTED.replace(/metadata:\n.*\n.*\n/, '');
    assert.deepEqual(await check(byHand, { skill_id: 'wc', skill_version: '9.9.9', description: 'Other.' }), []);
    assert.deepEqual(await check('# wc\n', { skill_id: 'wc', skill_version: '9.9.9' }), []);
  });

  it('a manifest whose fields are of the wrong type is not compared on them', async () => {
    assert.deepEqual(await check(CONVERTED, { skill_id: 'wc', skill_version: 1.0, description: 'Count words. Use when asked.' }), []);
  });
});
