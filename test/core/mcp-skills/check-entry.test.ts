import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SkillEntry } from '../../../src/core/mcp-skills/answers.js';
import { checkEntry } from '../../../src/core/mcp-skills/check-entry.js';
import { DEFAULT_PULL_LIMITS } from '../../../src/core/mcp-skills/limits.js';

const D = `sha256:${'b'.repeat(64)}` as const;
const entry = (uris: string[], extra: Partial<SkillEntry> = {}): SkillEntry => ({
  uri: 'skill://x/SKILL.md',
  frontmatter: { name: 'x', description: 'd' },
  resources: uris.map((uri) => ({ uri, digest: D, size: 1 })),
  ...extra,
});
const codes = (e: SkillEntry, asked?: string): string[] => checkEntry(e, DEFAULT_PULL_LIMITS, asked).diagnostics.map((d) => d.code);

describe('checkEntry', () => {
  it('plans a clean entry: each file once, with its path', () => {
    const r = checkEntry(entry(['skill://x/SKILL.md', 'skill://x/a/b.md']), DEFAULT_PULL_LIMITS);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.plan?.files.map((f) => f.path), ['SKILL.md', 'a/b.md']);
  });
  it('refuses files that would land on one path on a case-insensitive disk, or a file inside a file', () => {
    assert.deepEqual(codes(entry(['skill://x/SKILL.md', 'skill://x/A.md', 'skill://x/a.md'])), ['MCP_PULL_RESOURCE_DUPLICATE']);
    assert.deepEqual(codes(entry(['skill://x/SKILL.md', 'skill://x/SKILL.md'])), ['MCP_PULL_RESOURCE_DUPLICATE']);
    assert.deepEqual(codes(entry(['skill://x/SKILL.md', 'skill://x/a', 'skill://x/a/b'])), ['MCP_PULL_RESOURCE_DUPLICATE']);
    // Windows drops a name's trailing dots and spaces; HFS+ ignores zero-width joiners: one file each.
    assert.deepEqual(codes(entry(['skill://x/SKILL.md', 'skill://x/a.md', 'skill://x/a.md.'])), ['MCP_PULL_RESOURCE_DUPLICATE']);
    assert.deepEqual(codes(entry(['skill://x/SKILL.md', 'skill://x/a.md', 'skill://x/a%E2%80%8C.md'])), ['MCP_PULL_RESOURCE_DUPLICATE']);
  });
  it('refuses an entry without resources, or whose resources leave out SKILL.md', () => {
    assert.deepEqual(codes({ uri: 'skill://x/SKILL.md', frontmatter: { name: 'x' } }), ['MCP_PULL_NO_DIGESTS']);
    assert.deepEqual(codes(entry(['skill://x/a.md'])), ['MCP_PULL_FILE_UNLISTED']);
  });
  it('refuses the entry of another skill than the one asked for', () => {
    assert.deepEqual(codes(entry(['skill://x/SKILL.md']), 'skill://y/SKILL.md'), ['MCP_PULL_URI_REFUSED']);
  });
  it('refuses more files or bytes than the bounds', () => {
    const many = Array.from({ length: DEFAULT_PULL_LIMITS.files + 1 }, (_, i) => `skill://x/f${i}`);
    assert.deepEqual(codes(entry(many)), ['MCP_PULL_SKILL_TOO_LARGE']);
    const big: SkillEntry = { ...entry([]), resources: [{ uri: 'skill://x/SKILL.md', digest: D, size: DEFAULT_PULL_LIMITS.fileBytes + 1 }] };
    assert.deepEqual(codes(big), ['MCP_PULL_FILE_TOO_LARGE']);
  });
});
