// resources/read of a skill:// URI (src/mcp/skills.ts) over a catalogue whose reads share a pass
// of checks for READ_PASS_MS: a file the shared entry does not list yet, or no longer matches, is
// looked for in a fresh listing before the read is refused.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { servedCatalogue, SETTLE_MS } from '../../src/core/agent-skills/index.js';
import { readSkillResource } from '../../src/mcp/skills.js';
import { RpcError } from '../../src/mcp/wire/errors.js';
import { tempDir } from '../helpers/tmp.js';

const TICK_MS = 30;

function project(): { root: string; dir: string } {
  const root = tempDir();
  const dir = join(root, 'word-count');
  mkdirSync(join(dir, 'references'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: word-count\ndescription: Count the words of a text. Use when asked how long a text is.\n---\n\n# word-count\n');
  writeFileSync(join(dir, 'references', 'a.md'), 'alpha\n');
  return { root, dir };
}

/** A catalogue whose clock stands still: every read is within the window of the first. */
function standing(root: string): ReturnType<typeof servedCatalogue> {
  const now = Date.now() + 10 * SETTLE_MS;
  return servedCatalogue([{ dir: root, label: 'skills' }], () => now);
}

const text = (r: Awaited<ReturnType<typeof readSkillResource>>): unknown => (r.contents[0] as { text?: string }).text;

describe('readSkillResource with reads sharing a pass', () => {
  it('a file added within the window is read (from a fresh listing); a URI no listing has is -32002', async () => {
    const { root, dir } = project();
    const c = standing(root);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'b.md'), 'beta\n');
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/b.md')), 'beta\n');
    await assert.rejects(readSkillResource(c, 'skill://word-count/references/c.md'), (err: unknown) => err instanceof RpcError && err.code === -32002);
  });

  it('a file edited within the window is answered with its new bytes, never the old entry', async () => {
    const { root, dir } = project();
    const c = standing(root);
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'alpha\n');
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'a.md'), 'omega\n');
    assert.equal(text(await readSkillResource(c, 'skill://word-count/references/a.md')), 'omega\n');
  });
});
