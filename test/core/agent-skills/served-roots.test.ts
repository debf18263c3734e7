// mcp --skills holds each root to the directory it named at start (served-roots.ts): resolved
// once (a link the user named is followed then), then opened at every pass without following a
// link and used only while it is that directory; a root swapped for a link or another directory
// lists nothing (BUNDLE_ROOT_CHANGED) and its skills are unknown, as deleted ones are.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readServedFile, ServedFileChanged, servedCatalogue, ServedRoots, SETTLE_MS, type ServedSkill } from '../../../src/core/agent-skills/index.js';
import { tempDir } from '../../helpers/tmp.js';

/** A time at which every file on disk was changed long ago. */
const later = (): number => Date.now() + 10 * SETTLE_MS;

/** A SKILL.md folder `name` under `dir`, with docs/guide.md holding `text`. */
function skill(dir: string, name: string, text = 'inside\n'): void {
  mkdirSync(join(dir, name, 'docs'), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: A served skill. Use when testing.\n---\n\n# ${name}\n`);
  writeFileSync(join(dir, name, 'docs', 'guide.md'), text);
}

/** `proj/skills/demo`, and `proj/outside` holding a skill `demo` of other bytes and a skill `thief`. */
function layout(): { proj: string; skills: string; outside: string } {
  const proj = realpathSync(tempDir('skillctl-served-roots-'));
  const skills = join(proj, 'skills');
  const outside = join(proj, 'outside');
  skill(skills, 'demo');
  skill(outside, 'demo', 'outside\n');
  skill(outside, 'thief', 'outside\n');
  return { proj, skills, outside };
}

const codes = (ds: readonly { code: string }[]): string[] => ds.map((d) => d.code);
const paths = (ss: readonly ServedSkill[]): string[] => ss.map((s) => s.path);

describe('ServedRoots: each root held to the directory it named at start', () => {
  it('a root named through a link is resolved at start and held as the directory it led to', async () => {
    const { proj, skills } = layout();
    symlinkSync(skills, join(proj, 'named'));
    const roots = new ServedRoots([{ dir: join(proj, 'named'), label: 'named' }]);
    assert.deepEqual(
      roots.held().map((r) => [r.dir, r.label]),
      [[skills, 'named']],
    );
    assert.deepEqual((await roots.check()).roots.map((r) => r.dir), [skills]);
    // The link the user named may change since: the root is the directory it led to at start.
    rmSync(join(proj, 'named'));
    assert.deepEqual((await roots.check()).roots.map((r) => r.dir), [skills]);
  });

  it('a root that names a skill through a link takes its skill path from the folder it leads to', async () => {
    const { proj, skills } = layout();
    symlinkSync(join(skills, 'demo'), join(proj, 'named'));
    const c = servedCatalogue([{ dir: join(proj, 'named'), label: 'named' }], later);
    assert.deepEqual(paths((await c.list()).skills), ['demo']);
    c.close();
  });

  it('swapped for a link to another folder: nothing listed (BUNDLE_ROOT_CHANGED), its skills unknown, a read refused; back in place, served again', async () => {
    const { proj, skills, outside } = layout();
    const c = servedCatalogue([{ dir: skills, label: 'skills' }], later);
    const first = await c.list();
    assert.deepEqual(paths(first.skills), ['demo']);
    const demo = first.skills[0] as ServedSkill;
    const guide = demo.files.find((f) => f.path === 'docs/guide.md');
    assert.ok(guide !== undefined && demo.baseId !== undefined);
    renameSync(skills, join(proj, 'skills.moved'));
    symlinkSync(outside, skills);
    const listed = await c.list();
    assert.deepEqual(paths(listed.skills), []);
    assert.deepEqual(codes(listed.diagnostics), ['BUNDLE_ROOT_CHANGED']);
    assert.equal(listed.diagnostics[0]?.file, 'skills');
    for (const path of ['demo', 'thief']) assert.equal(await c.get(path), undefined, path);
    for (const path of ['demo/docs/guide.md', 'thief/docs/guide.md']) assert.equal(await c.lookup(path, { file: true }), undefined, path);
    // A read from the entry listed before reaches the root without following the link.
    await assert.rejects(readServedFile(demo.dir, guide, demo.base, demo.baseId), ServedFileChanged);
    rmSync(skills);
    renameSync(join(proj, 'skills.moved'), skills);
    assert.deepEqual(paths((await c.list()).skills), ['demo']);
    assert.equal(String(await readServedFile(demo.dir, guide, demo.base, demo.baseId)), 'inside\n');
    c.close();
  });

  it('replaced by another directory: nothing listed (BUNDLE_ROOT_CHANGED); gone: nothing listed, as before', async () => {
    const { proj, skills } = layout();
    const c = servedCatalogue([{ dir: skills, label: 'skills' }], later);
    assert.deepEqual(paths((await c.list()).skills), ['demo']);
    renameSync(skills, join(proj, 'skills.moved'));
    skill(skills, 'other');
    const replaced = await c.list();
    assert.deepEqual([paths(replaced.skills), codes(replaced.diagnostics)], [[], ['BUNDLE_ROOT_CHANGED']]);
    rmSync(skills, { recursive: true });
    const gone = await c.list();
    assert.deepEqual([paths(gone.skills), codes(gone.diagnostics)], [[], []]);
    c.close();
  });

  it('a root missing at start is held from the pass that first finds it', async () => {
    const { proj, outside } = layout();
    const late = join(proj, 'late');
    const c = servedCatalogue([{ dir: late, label: 'late' }], later);
    assert.deepEqual(paths((await c.list()).skills), []);
    skill(late, 'demo');
    assert.deepEqual(paths((await c.list()).skills), ['demo']);
    renameSync(late, join(proj, 'late.moved'));
    symlinkSync(outside, late);
    const listed = await c.list();
    assert.deepEqual([paths(listed.skills), codes(listed.diagnostics)], [[], ['BUNDLE_ROOT_CHANGED']]);
    c.close();
  });
});
