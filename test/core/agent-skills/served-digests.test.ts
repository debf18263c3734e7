// The listing behind `mcp --skills` keeps only the digests its last listing or read uses: a file
// deleted or renamed, or a skill removed, leaves the cache at the next read or listing.
import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { servedCatalogue, type ServedSkill } from '../../../src/core/agent-skills/index.js';
import { digestOf, fileOf as file, settled, skill, TICK_MS } from '../../helpers/served-skill.js';
import { tempDir } from '../../helpers/tmp.js';

describe('DigestCache: only the digests the last listing or read uses are kept', () => {
  it('a file deleted or renamed, and a skill removed, leave the cache at the next read or listing; a file made again is hashed again', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'references/a.md': 'alpha\n', 'references/b.md': 'beta\n' });
    skill(root, 'line-count', { 'c.md': 'gamma\n' });
    skill(root, 'untouched', { 'd.md': 'delta\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const kept = (): string[] => c.digestPaths().map((p) => p.slice(root.length + 1)).sort();
    const all = ['line-count/SKILL.md', 'line-count/c.md', 'untouched/SKILL.md', 'untouched/d.md', 'word-count/SKILL.md', 'word-count/references/a.md', 'word-count/references/b.md'];
    await c.list();
    await c.list();
    assert.deepEqual(kept(), all);
    await sleep(TICK_MS);
    rmSync(join(dir, 'references', 'b.md'));
    renameSync(join(dir, 'references', 'a.md'), join(dir, 'references', 'moved.md'));
    rmSync(join(root, 'line-count'), { recursive: true });
    // A read lists word-count afresh (its shape changed): its old files go; line-count's entry stays until a listing.
    assert.ok(await c.get('word-count'));
    assert.deepEqual(kept(), ['line-count/SKILL.md', 'line-count/c.md', 'untouched/SKILL.md', 'untouched/d.md', 'word-count/SKILL.md', 'word-count/references/moved.md']);
    await c.list();
    assert.deepEqual(kept(), ['untouched/SKILL.md', 'untouched/d.md', 'word-count/SKILL.md', 'word-count/references/moved.md']);
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'a.md'), 'omega\n');
    const r = await c.list();
    assert.deepEqual(file(r.skills.find((s) => s.path === 'word-count') as ServedSkill, 'references/a.md'), { digest: digestOf('omega\n'), size: 6 });
    assert.deepEqual(kept(), ['untouched/SKILL.md', 'untouched/d.md', 'word-count/SKILL.md', 'word-count/references/a.md', 'word-count/references/moved.md']);
  });

  it('a skill removed is dropped, with its digests, by the get or read that finds it gone, listed or read before: no listing needed', async () => {
    const root = tempDir();
    skill(root, 'word-count', { 'a.md': 'alpha\n' });
    skill(root, 'line-count', { 'c.md': 'gamma\n' });
    skill(join(root, 'team', 'tools'), 'deep', { 'd.md': 'delta\n' });
    skill(root, 'untouched', { 'u.md': 'upsilon\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const kept = (): string[] => c.digestPaths().map((p) => p.slice(root.length + 1)).sort();
    await c.list();
    assert.ok(await c.get('line-count'));
    await sleep(TICK_MS);
    // Read before, then its folder removed: get finds it gone.
    rmSync(join(root, 'line-count'), { recursive: true });
    assert.equal(await c.get('line-count'), undefined);
    assert.deepEqual(kept().filter((p) => p.startsWith('line-count/')), []);
    // Listed only, then its SKILL.md removed: a read of one of its files finds it gone.
    rmSync(join(root, 'word-count', 'SKILL.md'));
    assert.equal(await c.lookup('word-count/a.md'), undefined);
    assert.deepEqual(kept().filter((p) => p.startsWith('word-count/')), []);
    // Listed only, its folder and the one above removed: a read below it finds it gone.
    rmSync(join(root, 'team', 'tools'), { recursive: true });
    assert.equal(await c.lookup('team/tools/deep/d.md'), undefined);
    assert.deepEqual(kept(), ['untouched/SKILL.md', 'untouched/u.md']);
  });

  it('a nested skill removed: the files its outer skill still lists keep their digests', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'inner/a.md': 'alpha\n' });
    skill(dir, 'inner');
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    assert.deepEqual((await c.list()).skills.map((s) => s.path), ['word-count', 'word-count/inner']);
    await sleep(TICK_MS);
    rmSync(join(dir, 'inner', 'SKILL.md'));
    assert.deepEqual((await c.list()).skills.map((s) => s.path), ['word-count']);
    assert.deepEqual(c.digestPaths().map((p) => p.slice(dir.length + 1)).sort(), ['SKILL.md', 'inner/a.md']);
  });
});
