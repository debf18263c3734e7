// Threat: check-then-use races. While `skillctl mcp --skills` lists and serves a skill, or `pin`
// lists and hashes a bundle, another process swaps a directory of it with a symlink to outside
// (`~/.ssh`), atomically and thousands of times a second (test/helpers/swapper.py). Whatever the
// timing, nothing from outside may be listed, hashed or served: each listing, read or pin is of
// the files inside, or leaves the skill out (BUNDLE_SYMLINK, or a read refused).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { servedCatalogue } from '../../src/core/agent-skills/index.js';
import { collectTargets, preparePin, type PinTarget } from '../../src/core/pins/index.js';
import { readSkillResource } from '../../src/mcp/skills.js';
import { SECRET } from '../helpers/attack.js';
import { makeProject } from '../helpers/project.js';
import { swap } from '../helpers/swap.js';
import { tempDir } from '../helpers/tmp.js';
import { errorCodesOf } from '../helpers/diagnostics.js';

/** Runs per attack: the issue asks for at least 200 against the swapping process. */
const RUNS = 200;

const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** Outside: other bytes under the inside files' names, a name only outside has, and a FIFO only a walk that entered it would find. */
function outsideDir(names: readonly string[]): string {
  const outside = realpathSync(tempDir('skillctl-walk-race-outside-'));
  mkdirSync(join(outside, 'sub'));
  for (const n of names) writeFileSync(join(outside, n), `${SECRET}\n`);
  writeFileSync(join(outside, 'id_ed25519'), `${SECRET}\n`);
  execFileSync('mkfifo', [join(outside, 'leak')]);
  return outside;
}

describe('threat: check-then-use races (a skill directory swapped for a symlink while mcp --skills lists and serves it, or pin hashes it)', () => {
  it(`mcp --skills: ${RUNS} listings and reads of a skill while its docs/ and a link to outside trade places: nothing from outside is listed, hashed or served`, async () => {
    const proj = realpathSync(tempDir('skillctl-walk-race-'));
    const skill = join(proj, 'skills', 'demo');
    mkdirSync(join(skill, 'docs', 'sub'), { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: demo\ndescription: A skill whose docs/ is swapped. Use when testing.\n---\n\nSee docs/.\n');
    writeFileSync(join(skill, 'docs', 'guide.md'), 'inside\n');
    writeFileSync(join(skill, 'docs', 'sub', 'deep.md'), 'inside\n');
    const outside = outsideDir(['guide.md', join('sub', 'deep.md')]);
    symlinkSync(outside, join(proj, 'docs-link'));
    const catalogue = servedCatalogue([{ dir: join(proj, 'skills'), label: 'skills' }], Date.now);
    const stop = await swap(join(skill, 'docs'), join(proj, 'docs-link'));
    const seen: Record<string, number> = {};
    const count = (key: string): void => void (seen[key] = (seen[key] ?? 0) + 1);
    const leaks: string[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        const listed = await catalogue.list();
        const text = JSON.stringify(listed);
        // A digest of outside's bytes, or a name only outside has, is a leak; so is its FIFO listed.
        if (text.includes(sha(`${SECRET}\n`)) || text.includes('id_ed25519') || text.includes('"docs/leak"')) leaks.push(`listing: ${text}`);
        count(listed.skills.length === 1 ? 'listed' : [...new Set(listed.diagnostics.map((d) => d.code))].sort().join(','));
        for (const uri of ['skill://demo/docs/guide.md', 'skill://demo/docs/sub/deep.md', 'skill://demo/docs/id_ed25519']) {
          try {
            const r = await readSkillResource(catalogue, uri);
            const body = JSON.stringify(r);
            if (body.includes(SECRET)) leaks.push(`read ${uri}: ${body}`);
            count('read');
          } catch (err) {
            count(`refused:${(err as { code?: unknown }).code ?? String(err)}`);
          }
        }
      }
    } finally {
      await stop();
      catalogue.close();
    }
    assert.deepEqual(leaks, [], JSON.stringify(seen));
    for (const key of Object.keys(seen)) assert.ok(['listed', 'read', 'BUNDLE_SYMLINK'].includes(key) || key.startsWith('refused:'), JSON.stringify(seen));
    assert.ok((seen.listed ?? 0) > 0 && (seen.read ?? 0) > 0, `nothing was listed or read while the directories swapped: ${JSON.stringify(seen)}`);
  });

  it(`pin: ${RUNS} pins of a bundle while its data/ and a link to outside trade places: each pins the inside files or finds BUNDLE_SYMLINK, never hashes outside`, async () => {
    const root = await makeProject();
    const targets = await collectTargets(root, root, ['manifests/hello'], false);
    const target = targets.targets[0] as PinTarget;
    const ctx = { root, keys: new Map(), signing: [] };
    const expected = (await preparePin(ctx, target)).prepared;
    assert.ok(expected !== undefined);
    const outside = outsideDir(['words.txt']);
    symlinkSync(outside, join(root, 'data-link'));
    const stop = await swap(join(root, 'manifests', 'hello', 'data'), join(root, 'data-link'));
    const seen: Record<string, number> = {};
    try {
      for (let i = 0; i < RUNS; i++) {
        const r = await preparePin(ctx, target);
        let key: string;
        if (r.prepared !== undefined) key = JSON.stringify(r.prepared.entry) === JSON.stringify(expected.entry) ? 'pinned' : `other pin: ${JSON.stringify(r.prepared.entry)}`;
        else key = errorCodesOf(r.diagnostics).join(',');
        seen[key] = (seen[key] ?? 0) + 1;
      }
    } finally {
      await stop();
    }
    // Another pin: outside's words.txt was hashed; BUNDLE_CONTENT_MISMATCH-like codes: validation hashed it.
    for (const key of Object.keys(seen)) assert.ok(key === 'pinned' || key === 'BUNDLE_SYMLINK', JSON.stringify(seen));
    assert.ok((seen.pinned ?? 0) > 0, `no pin got through while the directories swapped: ${JSON.stringify(seen)}`);
  });
});
