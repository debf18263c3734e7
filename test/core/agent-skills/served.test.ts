// The listing behind `mcp --skills`: what is kept between listings (directory listings by
// directory identity, digests by file identity), what makes it list again, and a read that never
// answers with bytes the listing does not vouch for. The clock is passed in: "settled" models a
// project whose files were last changed long before the listing.
import assert from 'node:assert/strict';
import { appendFileSync, lstatSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ABSENT,
  DigestCache,
  identityOf,
  packIdentities,
  readServedFile,
  ServedFileChanged,
  servedCatalogue,
  ServedWalker,
  SETTLE_MS,
  setUnchanged,
  type ServedCatalogue,
  type ServedSkill,
} from '../../../src/core/agent-skills/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { digestOf, fileOf as file, settled, skill, TICK_MS } from '../../helpers/served-skill.js';

async function only(c: ServedCatalogue): Promise<ServedSkill> {
  const r = await c.list();
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.skills.length, 1);
  return r.skills[0] as ServedSkill;
}


describe('servedCatalogue: what a later listing reuses', () => {
  it('an unchanged skill is the very entry of the listing before (nothing read, parsed or hashed again)', async () => {
    const root = tempDir();
    skill(root, 'word-count', { 'references/a.md': 'alpha\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const first = await only(c);
    assert.equal(await only(c), first);
  });

  it("a file's content changed with its size and mtime put back (utimes): its ctime moved, so it is hashed again", async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'references/a.md': 'alpha\n' });
    const path = join(dir, 'references', 'a.md');
    // A whole second, so that utimes can put it back exactly.
    const mtime = 1_700_000_000;
    utimesSync(path, mtime, mtime);
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const first = await only(c);
    assert.equal(file(first, 'references/a.md').digest, digestOf('alpha\n'));
    const before = lstatSync(path);
    await sleep(TICK_MS);
    writeFileSync(path, 'omega\n');
    utimesSync(path, mtime, mtime);
    const after = lstatSync(path);
    assert.equal(after.size, before.size);
    assert.equal(after.mtimeMs, before.mtimeMs);
    assert.notEqual(after.ctimeMs, before.ctimeMs);
    const again = await only(c);
    assert.notEqual(again, first);
    assert.deepEqual(file(again, 'references/a.md'), { digest: digestOf('omega\n'), size: 6 });
  });

  it('a changed file is listed again with its new size and digest; an added file is listed, a removed one is not', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'references/a.md': 'alpha\n', 'references/b.md': 'beta\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    await only(c);
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'a.md'), 'alpha, longer\n');
    writeFileSync(join(dir, 'references', 'c.md'), 'gamma\n');
    rmSync(join(dir, 'references', 'b.md'));
    const again = await only(c);
    assert.deepEqual(again.files.map((f) => f.path), ['SKILL.md', 'references/a.md', 'references/c.md']);
    assert.deepEqual(file(again, 'references/a.md'), { digest: digestOf('alpha, longer\n'), size: 14 });
    assert.deepEqual(file(again, 'references/c.md'), { digest: digestOf('gamma\n'), size: 6 });
  });

  it('a .skillignore written later takes its files out; a skill added under the root is listed', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'notes/draft.md': 'draft\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    assert.ok((await only(c)).files.some((f) => f.path === 'notes/draft.md'));
    await sleep(TICK_MS);
    writeFileSync(join(dir, '.skillignore'), 'notes/\n');
    skill(root, 'line-count');
    const r = await c.list();
    assert.deepEqual(r.skills.map((s) => s.path), ['line-count', 'word-count']);
    assert.deepEqual(r.skills[1]?.files.map((f) => f.path), ['.skillignore', 'SKILL.md']);
  });

  it('a .skillignore that ignores itself, edited in place to ignore a file: a later listing, get and read no longer have the file', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { '.skillignore': '.skillignore\n', 'secret.env': 'TOKEN=hunter2\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const first = await only(c);
    assert.deepEqual(first.files.map((f) => f.path), ['SKILL.md', 'secret.env']);
    assert.equal(await only(c), first);
    // A read that starts from the last entry while the skill's shape is unchanged (served-cache.ts).
    const READ = 'word-count/secret.env';
    assert.equal(await c.lookup(READ, { file: true }), first);
    const folder = statSync(dir);
    await sleep(TICK_MS);
    appendFileSync(join(dir, '.skillignore'), 'secret.env\n');
    // In place: no directory's times move, so only the .skillignore's own identity tells.
    assert.deepEqual([statSync(dir).mtimeMs, statSync(dir).ctimeMs], [folder.mtimeMs, folder.ctimeMs]);
    assert.deepEqual((await c.lookup(READ, { file: true }))?.files.map((f) => f.path), ['SKILL.md']);
    assert.deepEqual((await c.get('word-count'))?.files.map((f) => f.path), ['SKILL.md']);
    assert.deepEqual((await only(c)).files.map((f) => f.path), ['SKILL.md']);
  });

  it('the same edit with no read before the next listing: the listing no longer has the file', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { '.skillignore': '.skillignore\n', 'secret.env': 'TOKEN=hunter2\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    await only(c);
    await sleep(TICK_MS);
    appendFileSync(join(dir, '.skillignore'), 'secret.env\n');
    assert.deepEqual((await only(c)).files.map((f) => f.path), ['SKILL.md']);
  });

  it('a path kept as ABSENT is unchanged while nothing is there, and changed once something is', () => {
    const root = tempDir();
    const path = join(root, '.skillignore');
    const walker = new ServedWalker(settled);
    walker.begin();
    assert.equal(walker.unchanged(path, ABSENT), true);
    assert.equal(setUnchanged({ paths: [path], identities: packIdentities([ABSENT]) }), true);
    writeFileSync(path, '.skillignore\n');
    walker.begin();
    assert.equal(walker.unchanged(path, ABSENT), false);
    assert.equal(setUnchanged({ paths: [path], identities: packIdentities([ABSENT]) }), false);
    assert.equal(walker.unchanged(path, identityOf(lstatSync(path))), true);
  });

  it('a directory swapped for a link to another one is never listed through (the skill is refused)', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'references/a.md': 'alpha\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    await only(c);
    const outside = join(tempDir(), 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    await sleep(TICK_MS);
    rmSync(join(dir, 'references'), { recursive: true });
    (await import('node:fs')).symlinkSync(outside, join(dir, 'references'));
    const r = await c.list();
    assert.deepEqual(r.skills, []);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['BUNDLE_SYMLINK']);
  });
});

describe('servedCatalogue: reads', () => {
  it('a file edited in place after the listing: the last entry no longer matches it, and a fresh one has its new digest', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'references/a.md': 'alpha\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    const listed = await c.lookup('word-count/references/a.md');
    assert.ok(listed);
    const entry = listed.files.find((f) => f.path === 'references/a.md');
    assert.ok(entry);
    assert.equal((await readServedFile(listed.dir, entry)).toString(), 'alpha\n');
    await sleep(TICK_MS);
    writeFileSync(join(dir, 'references', 'a.md'), 'omega\n');
    // Its shape (directories, SKILL.md) is unchanged, so the read may start from the last entry; the file is checked.
    const kept = await c.lookup('word-count/references/a.md');
    assert.equal(kept, listed);
    await assert.rejects(readServedFile(listed.dir, entry), ServedFileChanged);
    const fresh = await c.get('word-count');
    assert.deepEqual(fresh !== undefined ? file(fresh, 'references/a.md') : undefined, { digest: digestOf('omega\n'), size: 6 });
  });

  it('bytes that do not hash to the listed digest are never answered, even under the listed identity (a stale digest)', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'a.md': 'alpha\n' });
    const st = lstatSync(join(dir, 'a.md'));
    const stale = { path: 'a.md', size: st.size, digest: digestOf('other\n') as `sha256:${string}`, identity: identityOf(st) };
    await assert.rejects(readServedFile(dir, stale), ServedFileChanged);
    assert.equal((await readServedFile(dir, { ...stale, digest: digestOf('alpha\n') as `sha256:${string}` })).toString(), 'alpha\n');
  });

  it('a skill path that escapes or names no skill folder finds nothing', async () => {
    const root = tempDir();
    skill(root, 'word-count');
    const c = servedCatalogue([{ dir: root, label: 'skills' }], settled);
    for (const path of ['..', 'word-count/..', 'missing', 'word-count/SKILL.md', '']) assert.equal(await c.get(path), undefined, path);
    assert.equal((await c.get('word-count'))?.name, 'word-count');
  });
});

describe('DigestCache: racy times', () => {
  it('keeps no digest of a file changed within SETTLE_MS of now (a change in the same tick would not show)', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.md'), 'alpha\n');
    const id = identityOf(statSync(join(root, 'a.md')));
    const now = id.ctimeMs + SETTLE_MS / 2;
    const recent = new DigestCache(new ServedWalker(() => now));
    assert.equal(recent.keepDigest(join(root, 'a.md'), id, `sha256:${'0'.repeat(64)}`), false);
    assert.equal(recent.digest(join(root, 'a.md'), id), undefined);
    const old = new DigestCache(new ServedWalker(() => id.ctimeMs + SETTLE_MS + 1));
    assert.equal(old.keepDigest(join(root, 'a.md'), id, `sha256:${'0'.repeat(64)}`), true);
    assert.equal(old.digest(join(root, 'a.md'), id), `sha256:${'0'.repeat(64)}`);
  });

  it('with the real clock, a file written and then changed at once is listed with its new digest', async () => {
    const root = tempDir();
    const dir = skill(root, 'word-count', { 'a.md': 'alpha\n' });
    const c = servedCatalogue([{ dir: root, label: 'skills' }], Date.now);
    assert.equal(file(await only(c), 'a.md').digest, digestOf('alpha\n'));
    writeFileSync(join(dir, 'a.md'), 'omega\n');
    assert.equal(file(await only(c), 'a.md').digest, digestOf('omega\n'));
  });
});
