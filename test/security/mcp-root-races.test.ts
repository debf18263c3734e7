// Threat: a local process swaps a root folder `mcp --skills` serves for a link to another folder (one holding a copy of the user's SSH keys in a skill folder) while a client lists and reads, so that the server lists, hashes and serves outside skills and files to a remote client.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { servedCatalogue } from '../../src/core/agent-skills/index.js';
import { readSkillResource } from '../../src/mcp/skills.js';
import { SECRET } from '../helpers/attack.js';
import { swap } from '../helpers/swap.js';
import { tempDir } from '../helpers/tmp.js';

/** Rounds of listings and reads, as walk-races.test.ts makes them. */
const RUNS = 200;

/** `RUNS` rounds, and more (up to ten times as many) while none listed the skill: as pin-races.test.ts, for a swapper not scheduled meanwhile. */
const again = (i: number, listed: number | undefined): boolean => i < RUNS || (listed === undefined && i < RUNS * 10);

const sha = (bytes: string): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const skillMd = (name: string, description: string): string => `---\nname: ${name}\ndescription: ${description} Use when testing.\n---\n\nSee docs/.\n`;

/** A skill folder `name` under `root` with `files` (path to text). */
function skill(root: string, name: string, md: string, files: Record<string, string>): void {
  mkdirSync(join(root, name, 'docs'), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), md);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, name, path), text);
}

describe('threat: a served root swapped for a link to another folder while mcp --skills lists and serves it', () => {
  it(`${RUNS} rounds of listings, gets and reads while skills/ and a link to an outside skills folder trade places: no outside skill or byte is ever listed or served`, async () => {
    const proj = realpathSync(tempDir('skillctl-mcp-root-race-'));
    const root = join(proj, 'skills');
    skill(root, 'demo', skillMd('demo', 'The inside skill.'), { 'docs/guide.md': 'inside\n' });
    // Outside: the same skill path with other bytes and a key beside them, and a skill only outside has.
    const outside = join(proj, 'outside');
    const outsideMd = skillMd('demo', `Outside ${SECRET}.`);
    skill(outside, 'demo', outsideMd, { 'docs/guide.md': `${SECRET}\n`, id_ed25519: `${SECRET}\n` });
    skill(outside, 'thief', skillMd('thief', 'A skill only outside has.'), { 'docs/secret.txt': `${SECRET}\n` });
    symlinkSync(outside, join(proj, 'skills-link'));
    const marks = [SECRET, sha(`${SECRET}\n`), sha(outsideMd), 'thief', 'id_ed25519'];
    const leaked = (text: string): boolean => marks.some((m) => text.includes(m));
    // The server starts with the root in place, as `mcp --skills skills` would.
    const catalogue = servedCatalogue([{ dir: root, label: 'skills' }], Date.now);
    assert.deepEqual((await catalogue.list()).skills.map((s) => s.path), ['demo']);
    const stop = await swap(root, join(proj, 'skills-link'));
    const seen: Record<string, number> = {};
    const count = (key: string): void => void (seen[key] = (seen[key] ?? 0) + 1);
    const leaks: string[] = [];
    try {
      for (let i = 0; again(i, seen.listed); i++) {
        const listed = await catalogue.list();
        // What a client gets: the entries. The findings stay on the server's stderr.
        const text = JSON.stringify(listed.skills);
        if (leaked(text)) leaks.push(`listing: ${text}`);
        count(listed.skills.length === 1 ? 'listed' : `not listed:${[...new Set(listed.diagnostics.map((d) => d.code))].sort().join(',')}`);
        for (const path of ['demo', 'thief']) {
          const got = await catalogue.get(path);
          if (got !== undefined && leaked(JSON.stringify(got))) leaks.push(`get ${path}: ${JSON.stringify(got)}`);
          count(got === undefined ? 'unknown' : 'got');
        }
        // What resources/directory/read answers from.
        for (const path of ['demo/docs', 'thief/docs']) {
          const found = await catalogue.lookup(path);
          if (found !== undefined && leaked(JSON.stringify(found))) leaks.push(`lookup ${path}: ${JSON.stringify(found)}`);
        }
        for (const uri of ['skill://demo/SKILL.md', 'skill://demo/docs/guide.md', 'skill://demo/id_ed25519', 'skill://thief/SKILL.md', 'skill://thief/docs/secret.txt']) {
          try {
            const body = JSON.stringify(await readSkillResource(catalogue, uri));
            if (leaked(body)) leaks.push(`read ${uri}: ${body}`);
            count('read');
          } catch (err) {
            count(`refused:${String((err as { code?: unknown }).code)}`);
          }
        }
      }
    } finally {
      await stop();
      catalogue.close();
    }
    assert.deepEqual(leaks.slice(0, 3), [], `${leaks.length} leaks; ${JSON.stringify(seen)}`);
    assert.ok((seen.listed ?? 0) > 0 && (seen.read ?? 0) > 0, `nothing was listed or read while the folders swapped: ${JSON.stringify(seen)}`);
  });
});
