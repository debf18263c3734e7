import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filePathOf, parseSkillUri, type SkillUri } from '../../../src/core/mcp-skills/uri.js';

function skill(uri: string): SkillUri {
  const p = parseSkillUri(uri);
  assert.ok(!('problem' in p), uri);
  return p;
}

describe('parseSkillUri', () => {
  it('takes the skill path and its last segment as the name (SEP-2640 examples)', () => {
    assert.deepEqual(skill('skill://git-workflow/SKILL.md'), { uri: 'skill://git-workflow/SKILL.md', root: 'skill://git-workflow', segments: ['git-workflow'], name: 'git-workflow' });
    const r = skill('skill://acme/billing/refunds/SKILL.md');
    assert.equal(r.root, 'skill://acme/billing/refunds');
    assert.equal(r.name, 'refunds');
  });

  for (const bad of [
    'https://x/SKILL.md',
    'skill://SKILL.md',
    'skill://a/b/README.md',
    'skill://a/../b/SKILL.md',
    'skill://a/./SKILL.md',
    'skill://a//SKILL.md',
    'skill://a%2Fb/SKILL.md',
    'skill://a%5Cb/SKILL.md',
    'skill://a/%2e%2e/SKILL.md',
    'skill://a%00/SKILL.md',
    'skill://a?x=1/SKILL.md',
    'skill://a%zz/SKILL.md',
  ]) {
    it(`refuses ${bad}`, () => assert.ok('problem' in parseSkillUri(bad)));
  }
});

describe('filePathOf', () => {
  const s = skill('skill://acme/refunds/SKILL.md');
  it('gives the decoded path below the skill root', () => {
    assert.deepEqual(filePathOf(s, 'skill://acme/refunds/templates/regional/eu-invoice.md'), { path: 'templates/regional/eu-invoice.md' });
    assert.deepEqual(filePathOf(s, 'skill://acme/refunds/notes/a%20b.md'), { path: 'notes/a b.md' });
    // Only the two folders together are an agent host's skill root.
    assert.deepEqual(filePathOf(s, 'skill://acme/refunds/.claude/settings.md'), { path: '.claude/settings.md' });
    assert.deepEqual(filePathOf(s, 'skill://acme/refunds/skills/.claude/x.md'), { path: 'skills/.claude/x.md' });
  });
  for (const bad of [
    'skill://acme/refunds/../other/SKILL.md',
    'skill://acme/refunds/a/%2E%2E/%2E%2E/x',
    'skill://acme/refunds/a%2F..%2F..%2Fx',
    'skill://acme/refunds/a%5C..%5Cx',
    'skill://acme/refunds-evil/SKILL.md',
    'skill://acme/other/SKILL.md',
    'skill://acme/refunds/',
    'skill://acme/refunds/a//b',
    'skill://acme/refunds/.git/hooks/pre-commit',
    'skill://acme/refunds/.git',
    'skill://acme/refunds/vendored/.git',
    'skill://acme/refunds/node_modules/x/index.js',
    'skill://acme/refunds/.skillctl/audit.jsonl',
    // Spellings macOS or Windows write as the names above.
    'skill://acme/refunds/.GIT/config',
    'skill://acme/refunds/.Git',
    'skill://acme/refunds/.git./config',
    'skill://acme/refunds/.git%20/config',
    'skill://acme/refunds/.gi%E2%80%8Ct/config',
    'skill://acme/refunds/Node_Modules/yaml/index.js',
    'skill://acme/refunds/.SkillCtl/audit.jsonl',
    // A skill of its own, loaded by an agent host from the pulled folder.
    'skill://acme/refunds/.claude/skills/deploy/SKILL.md',
    'skill://acme/refunds/docs/.agents/skills/deploy/SKILL.md',
    'skill://acme/refunds/.Claude/Skills/deploy/SKILL.md',
    'skill://acme/refunds/a%0Ab',
    'file:///etc/passwd',
    '/etc/passwd',
  ]) {
    it(`refuses ${bad}`, () => assert.ok('problem' in filePathOf(s, bad)));
  }
});
