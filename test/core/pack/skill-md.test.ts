// pack of an Agent Skills (SKILL.md) folder: the .tgz named after name and metadata.version, the
// .skill ZIP of Claude's upload, both reproducible byte for byte; refusals write nothing.
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { sha256 } from '../../../src/core/digest/index.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { fixture } from '../../helpers/paths.js';
import { removeDir, tempDir } from '../../helpers/project.js';
import { PDF_NOTES, PDF_NOTES_DIR, UNVERSIONED_DIR } from '../../helpers/skill-md.js';

const errors = (ds: readonly { code: string; severity: string }[]): string[] => ds.filter((d) => d.severity === 'error').map((d) => d.code);

describe('pack of a SKILL.md folder', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  const out = async (name: string): Promise<string> => {
    const d = join(dir, name);
    await mkdir(d);
    return d;
  };

  it('writes <name>-<metadata.version>.tgz, every file the content digest covers, to the recorded digest', async () => {
    const a = await packBundle(PDF_NOTES_DIR, await out('tgz-a'));
    const b = await packBundle(PDF_NOTES_DIR, await out('tgz-b'));
    assert.equal(a.ok, true, JSON.stringify(a.diagnostics));
    assert.equal(a.kind, 'agent-skill');
    assert.equal(a.archive, join(dir, 'tgz-a', 'pdf-notes-1.2.0.tgz'));
    assert.deepEqual(a.files.map((f) => f.path), ['SKILL.md', 'evals/cases.json', 'references/GUIDE.md', 'scripts/extract.py']);
    assert.equal(a.skillFile, undefined);
    const bytes = await readFile(a.archive as string);
    assert.ok(bytes.equals(await readFile(b.archive as string)));
    assert.equal(sha256(bytes), PDF_NOTES.tgz_digest);
    assert.equal(a.digest, PDF_NOTES.tgz_digest);
    assert.deepEqual(await readdir(join(dir, 'tgz-a')), ['pdf-notes-1.2.0.tgz']);
  });

  it('--format skill writes <name>.skill: one top-level folder, the exclusions left out, the same bytes from a copy', async () => {
    const copy = join(dir, 'copy', 'pdf-notes');
    await cp(PDF_NOTES_DIR, copy, { recursive: true, preserveTimestamps: false });
    const r = await packBundle(PDF_NOTES_DIR, await out('skill-a'), { formats: ['skill'] });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(r.archive, undefined);
    assert.deepEqual(await readdir(join(dir, 'skill-a')), ['pdf-notes.skill']);
    const sf = r.skillFile;
    assert.equal(sf?.path, join(dir, 'skill-a', 'pdf-notes.skill'));
    assert.equal(sf?.digest, PDF_NOTES.skill_digest);
    assert.deepEqual(sf?.excluded, ['evals/cases.json']);
    const bytes = await readFile(sf?.path as string);
    assert.equal(sha256(bytes), sf?.digest);
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(bytes))), ['pdf-notes/SKILL.md', 'pdf-notes/references/GUIDE.md', 'pdf-notes/scripts/extract.py']);
    const again = await packBundle(copy, await out('skill-b'), { formats: ['skill'] });
    assert.ok(bytes.equals(await readFile(again.skillFile?.path as string)));
  });

  it('the .skill leaves out __pycache__, *.pyc, .DS_Store, node_modules and a root evals/', async () => {
    const copy = join(dir, 'junk', 'pdf-notes');
    await cp(PDF_NOTES_DIR, copy, { recursive: true });
    await mkdir(join(copy, 'scripts', '__pycache__'));
    await writeFile(join(copy, 'scripts', '__pycache__', 'extract.cpython-311.pyc'), 'x');
    await writeFile(join(copy, 'scripts', 'old.pyc'), 'x');
    await writeFile(join(copy, '.DS_Store'), 'x');
    const r = await packBundle(copy, await out('junk-out'), { formats: ['skill'] });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.skillFile?.excluded, ['.DS_Store', 'evals/cases.json', 'scripts/__pycache__/extract.cpython-311.pyc', 'scripts/old.pyc']);
    assert.deepEqual(r.skillFile?.entries.map((e) => e.path), ['pdf-notes/SKILL.md', 'pdf-notes/references/GUIDE.md', 'pdf-notes/scripts/extract.py']);
    // The .skill's bytes are those of the clean folder: the excluded files change nothing.
    assert.equal(r.skillFile?.digest, PDF_NOTES.skill_digest);
  });

  it('both formats in one run: the same bytes as each alone', async () => {
    const r = await packBundle(PDF_NOTES_DIR, await out('both'), { formats: ['tgz', 'skill'] });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(r.digest, PDF_NOTES.tgz_digest);
    assert.equal(r.skillFile?.digest, PDF_NOTES.skill_digest);
    assert.deepEqual((await readdir(join(dir, 'both'))).sort(), ['pdf-notes-1.2.0.tgz', 'pdf-notes.skill']);
  });

  it('no metadata.version: the .tgz (alone or with the .skill) is refused with AGENT_SKILL_VERSION_REQUIRED and nothing is written', async () => {
    for (const formats of [['tgz'], ['tgz', 'skill']] as const) {
      const o = await out(`unversioned-${formats.join('-')}`);
      const r = await packBundle(UNVERSIONED_DIR, o, { formats });
      assert.equal(r.ok, false);
      assert.equal(r.kind, 'agent-skill');
      assert.deepEqual(errors(r.diagnostics), ['AGENT_SKILL_VERSION_REQUIRED']);
      assert.equal(r.archive, undefined);
      assert.deepEqual(await readdir(o), []);
    }
  });

  it('a .skill alone needs no version: Claude uploads are not versioned', async () => {
    const r = await packBundle(UNVERSIONED_DIR, await out('unversioned-skill'), { formats: ['skill'] });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(await readdir(join(dir, 'unversioned-skill')), ['pdf-notes.skill']);
  });

  it('strict profile refuses a client extension field the default profile only warns about', async () => {
    const copy = join(dir, 'ext', 'pdf-notes');
    await cp(PDF_NOTES_DIR, copy, { recursive: true });
    const md = join(copy, 'SKILL.md');
    await writeFile(md, (await readFile(md, 'utf8')).replace('metadata:', 'model: sonnet\nmetadata:'));
    const loose = await packBundle(copy, await out('ext-default'), { formats: ['skill'] });
    assert.equal(loose.ok, true);
    assert.ok(loose.diagnostics.some((d) => d.code === 'AGENT_SKILL_EXTENSION_FIELD' && d.severity === 'warning'));
    const o = await out('ext-strict');
    const strict = await packBundle(copy, o, { formats: ['skill'], profile: 'strict' });
    assert.equal(strict.ok, false);
    assert.deepEqual(errors(strict.diagnostics), ['AGENT_SKILL_EXTENSION_FIELD']);
    assert.deepEqual(await readdir(o), []);
  });

  it('a manifest bundle with no SKILL.md cannot be a .skill (AGENT_SKILL_MD_MISSING); its .tgz is unchanged', async () => {
    const o = await out('bundle-skill');
    const r = await packBundle(fixture('pack', 'golden-bundle'), o, { formats: ['tgz', 'skill'] });
    assert.equal(r.ok, false);
    assert.deepEqual(errors(r.diagnostics), ['AGENT_SKILL_MD_MISSING']);
    assert.deepEqual(await readdir(o), []);
    const tgz = await packBundle(fixture('pack', 'golden-bundle'), o);
    assert.equal(tgz.kind, 'bundle');
    assert.equal(tgz.ok, true);
  });

  it('a folder that is neither kind is refused with BUNDLE_NO_MANIFEST', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    await writeFile(join(empty, 'README.md'), 'x\n');
    const r = await packBundle(empty, await out('empty-out'), { formats: ['tgz', 'skill'] });
    assert.equal(r.ok, false);
    assert.equal(r.kind, undefined);
    assert.ok(errors(r.diagnostics).includes('BUNDLE_NO_MANIFEST'));
  });
});
