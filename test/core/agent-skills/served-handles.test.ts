// mcp --skills against a directory of a skill swapped for a link to outside (`~/.ssh`): a skill
// listed afresh is walked and hashed through directory handles (served-handles.ts), so a
// directory that is a link when it is opened leaves the skill out (BUNDLE_SYMLINK), and a read
// after the listing refuses a directory that became a link (ServedFileChanged), even one leading
// to the very files that were listed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { identityOf, readServedFile, ServedFileChanged, servedCatalogue, ServedWalker, SETTLE_MS, type ServedSkill } from '../../../src/core/agent-skills/index.js';
import { tempDir } from '../../helpers/tmp.js';

const SECRET = 'outside the skill\n';
const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;
/** A time at which every file on disk was changed long ago. */
const later = (): number => Date.now() + 10 * SETTLE_MS;

/** `root/skills/demo` with SKILL.md and docs/guide.md, and `root/outside` holding guide.md with SECRET. */
function layout(): { root: string; skills: string; demo: string; outside: string } {
  const root = realpathSync(tempDir('skillctl-served-handles-'));
  const skills = join(root, 'skills');
  const demo = join(skills, 'demo');
  const outside = join(root, 'outside');
  mkdirSync(join(demo, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(demo, 'SKILL.md'), '---\nname: demo\ndescription: A skill with docs. Use when testing.\n---\n\n# demo\n');
  writeFileSync(join(demo, 'docs', 'guide.md'), 'inside\n');
  writeFileSync(join(outside, 'guide.md'), SECRET);
  writeFileSync(join(outside, 'id_ed25519'), SECRET);
  return { root, skills, demo, outside };
}

describe('mcp --skills: a skill directory swapped for a link', () => {
  it('swapped after the folders were found and before the skill is read: the skill is left out (BUNDLE_SYMLINK), nothing outside listed or hashed', async () => {
    const { skills, demo, outside } = layout();
    // The clock is read once as the listing begins, then once per directory the search for
    // folders reads (skills/, demo/, demo/docs/): at the fourth, docs/ has been read.
    let calls = 0;
    let swapped = false;
    const clock = (): number => {
      if (++calls === 4) {
        renameSync(join(demo, 'docs'), join(demo, '..', '..', 'docs.moved'));
        symlinkSync(outside, join(demo, 'docs'));
        swapped = true;
      }
      return later();
    };
    const c = servedCatalogue([{ dir: skills, label: 'skills' }], clock);
    const listed = await c.list();
    assert.ok(swapped);
    const text = JSON.stringify(listed);
    assert.ok(!text.includes(sha(SECRET)) && !text.includes('id_ed25519'), text);
    assert.deepEqual(listed.skills, []);
    assert.deepEqual(listed.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_SYMLINK', join('skills', 'demo', 'docs')]]);
  });

  it('a skill folder that became a link is left out, not followed', async () => {
    const { root, skills, demo } = layout();
    let calls = 0;
    const clock = (): number => {
      // After skills/ was read: demo/ is found, then swapped for a link to a copy of it elsewhere.
      if (++calls === 2) {
        renameSync(demo, join(root, 'demo'));
        symlinkSync(join(root, 'demo'), demo);
      }
      return later();
    };
    const listed = await servedCatalogue([{ dir: skills, label: 'skills' }], clock).list();
    assert.deepEqual(listed.skills, []);
    assert.deepEqual(listed.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_SYMLINK', join('skills', 'demo')]]);
  });

  it('a read after the listing refuses a directory that became a link, even to the files listed (moved), and the next listing leaves the skill out', async () => {
    const { root, skills, demo } = layout();
    const c = servedCatalogue([{ dir: skills, label: 'skills' }], later);
    const skill = (await c.list()).skills[0] as ServedSkill;
    const entry = skill.files.find((f) => f.path === 'docs/guide.md');
    assert.ok(entry);
    assert.equal(String(await readServedFile(skill.dir, entry, skill.base)), 'inside\n');
    renameSync(join(demo, 'docs'), join(root, 'docs.moved'));
    symlinkSync(join(root, 'docs.moved'), join(demo, 'docs'));
    await assert.rejects(readServedFile(skill.dir, entry, skill.base), ServedFileChanged);
    const again = await c.list();
    assert.deepEqual(again.skills, []);
    assert.deepEqual(again.diagnostics.map((d) => d.code), ['BUNDLE_SYMLINK']);
  });
});

describe('ServedWalker.listedAs: listings kept by the path a directory was reached as, used only for the identity opened', () => {
  it('a kept listing serves a later pass only for the same identity; another directory at that path is read', () => {
    const root = realpathSync(tempDir('skillctl-served-handles-'));
    for (const d of ['one', 'two']) {
      mkdirSync(join(root, d));
      writeFileSync(join(root, d, `${d}.txt`), d);
    }
    const w = new ServedWalker(later);
    w.begin();
    const path = join(root, 'dir');
    const one = identityOf(statSync(join(root, 'one')));
    assert.deepEqual(w.listedAs(path, one, join(root, 'one')).map((e) => e.name), ['one.txt']);
    // Within the same pass, another directory at that path (a link's target) is read, not taken for the kept one.
    const two = identityOf(statSync(join(root, 'two')));
    assert.deepEqual(w.listedAs(path, two, join(root, 'two')).map((e) => e.name), ['two.txt']);
    w.begin();
    // Kept and settled: not read again (the place it would be read from does not exist).
    assert.deepEqual(w.listedAs(path, two, join(root, 'gone')).map((e) => e.name), ['two.txt']);
    assert.deepEqual(readdirSync(root).sort(), ['one', 'two']);
  });
});
