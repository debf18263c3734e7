import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toGetResult, toReadResult, toSkillPage } from '../../../src/core/mcp-skills/answers.js';

const D = `sha256:${'a'.repeat(64)}`;

describe('answers of an untrusted server', () => {
  it('takes a well-formed skills/get result', () => {
    const r = toGetResult({ skill: { uri: 'skill://x/SKILL.md', frontmatter: { name: 'x' }, resources: [{ uri: 'skill://x/SKILL.md', digest: D, size: 3 }] } });
    assert.ok('value' in r);
    assert.deepEqual(r.value.resources, [{ uri: 'skill://x/SKILL.md', digest: D, size: 3 }]);
  });
  for (const [what, result] of [
    ['no skill', {}],
    ['frontmatter an array', { skill: { uri: 'skill://x/SKILL.md', frontmatter: [], resources: [] } }],
    ['an uppercase digest', { skill: { uri: 'skill://x/SKILL.md', frontmatter: {}, resources: [{ uri: 'u', digest: D.toUpperCase() }] } }],
    ['a negative size', { skill: { uri: 'skill://x/SKILL.md', frontmatter: {}, resources: [{ uri: 'u', digest: D, size: -1 }] } }],
    ['a fractional size', { skill: { uri: 'skill://x/SKILL.md', frontmatter: {}, resources: [{ uri: 'u', digest: D, size: 1.5 }] } }],
    ['resources an object', { skill: { uri: 'skill://x/SKILL.md', frontmatter: {}, resources: {} } }],
  ] as const) {
    it(`refuses a skills/get result with ${what}`, () => assert.ok('problem' in toGetResult(result)));
  }
  it('takes no entries from a page that has one bad entry, and refuses a cursor that is not a string', () => {
    assert.ok('problem' in toSkillPage({ skills: [{ uri: 'skill://a/SKILL.md', frontmatter: {} }, 7] }));
    assert.ok('problem' in toSkillPage({ skills: [], nextCursor: 3 }));
  });
  it('reads text as UTF-8 and blob as strict base64, for the URI asked only', () => {
    const text = toReadResult({ contents: [{ uri: 'skill://x/a', text: 'é' }] }, 'skill://x/a');
    assert.ok('value' in text);
    assert.deepEqual([...text.value.bytes], [0xc3, 0xa9]);
    const blob = toReadResult({ contents: [{ uri: 'skill://x/a', blob: '/w==' }] }, 'skill://x/a');
    assert.ok('value' in blob);
    assert.deepEqual([...blob.value.bytes], [0xff]);
    assert.ok('problem' in toReadResult({ contents: [{ uri: 'skill://x/a', blob: '/w=*=' }] }, 'skill://x/a'));
    assert.ok('problem' in toReadResult({ contents: [{ uri: 'skill://x/b', text: 'x' }] }, 'skill://x/a'));
    assert.ok('problem' in toReadResult({ contents: [{ uri: 'skill://x/a', text: 'x' }, { uri: 'skill://x/a', text: 'y' }] }, 'skill://x/a'));
    assert.ok('problem' in toReadResult({ contents: [{ uri: 'skill://x/a', text: 'x', blob: 'eA==' }] }, 'skill://x/a'));
  });
});
