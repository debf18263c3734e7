/**
 * Skills on disk for the tests of the listing behind `mcp --skills` (src/core/agent-skills/served-*.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { SETTLE_MS, type ServedSkill } from '../../src/core/agent-skills/index.js';

export const digestOf = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;
/** A clock for which every file on disk was changed long ago. */
export const settled = (): number => Date.now() + 10 * SETTLE_MS;
// A coarse file-system clock stamps changes made within one tick alike: the tests change files a tick later.
export const TICK_MS = 30;

/** A SKILL.md folder `name` under `root`, with `files` (paths relative to it). */
export function skill(root: string, name: string, files: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Count the words of a text. Use when asked how long a text is.\n---\n\n# ${name}\n`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The digest and size `s` lists for `path` (failing when it lists none). */
export function fileOf(s: ServedSkill, path: string): { digest: string; size: number } {
  const f = s.files.find((x) => x.path === path);
  assert.ok(f, `${path} is listed`);
  return { digest: f.digest, size: f.size };
}
