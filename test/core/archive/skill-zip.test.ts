import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { excludedFromSkillZip, packSkillZip } from '../../../src/core/archive/index.js';
import { dirSource } from '../../../src/core/bundle/index.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

function write(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), text);
  }
}

describe('.skill archive (package_skill.py format, reproducible)', () => {
  it('leaves out what package_skill.py leaves out', () => {
    const out = ['__pycache__/x.pyc', 'scripts/__pycache__/m.cpython-311.pyc', 'scripts/m.pyc', 'node_modules/a/index.js', 'assets/.DS_Store', '.DS_Store', 'evals/cases.json'];
    const kept = ['SKILL.md', 'scripts/evals/helper.py', 'references/evals.md', 'scripts/m.py'];
    for (const p of out) assert.equal(excludedFromSkillZip(p), true, p);
    for (const p of kept) assert.equal(excludedFromSkillZip(p), false, p);
  });

  it('holds one top-level folder named after the skill, files in UTF-8 path order, exclusions listed', async () => {
    const dir = join(tempDir(), 'pdf-tools');
    cpSync(fixture('agent-skills', 'valid', 'pdf-tools'), dir, { recursive: true });
    write(dir, { 'evals/cases.json': '[]', 'scripts/__pycache__/extract.cpython-311.pyc': 'x', '.DS_Store': 'x' });
    const zip = await packSkillZip(dirSource(dir), 'pdf-tools');
    assert.deepEqual(zip.diagnostics, []);
    assert.deepEqual(zip.entries.map((e) => e.path), [
      'pdf-tools/LICENSE.txt',
      'pdf-tools/SKILL.md',
      'pdf-tools/assets/report-template.md',
      'pdf-tools/references/FORMS.md',
      'pdf-tools/scripts/extract.py',
    ]);
    assert.deepEqual(zip.excluded, ['.DS_Store', 'evals/cases.json', 'scripts/__pycache__/extract.cpython-311.pyc']);
    const back = unzipSync(new Uint8Array(zip.bytes as Buffer));
    assert.deepEqual(Object.keys(back), zip.entries.map((e) => e.path));
  });

  it('is byte-identical for the same content, whatever the timestamps and creation order', async () => {
    const root = tempDir();
    const a = join(root, 'a', 'demo');
    const b = join(root, 'b', 'demo');
    write(a, { 'SKILL.md': '---\nname: demo\ndescription: d\n---\n', 'scripts/run.sh': 'echo 1\n', 'assets/z.txt': 'z' });
    write(b, { 'assets/z.txt': 'z', 'scripts/run.sh': 'echo 1\n', 'SKILL.md': '---\nname: demo\ndescription: d\n---\n' });
    chmodSync(join(a, 'scripts/run.sh'), 0o755);
    chmodSync(join(b, 'scripts/run.sh'), 0o775);
    utimesSync(join(b, 'SKILL.md'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    const za = await packSkillZip(dirSource(a), 'demo');
    const zb = await packSkillZip(dirSource(b), 'demo');
    assert.ok(za.bytes && zb.bytes && za.bytes.equals(zb.bytes));
    assert.equal(za.digest, zb.digest);
  });

  it('fails closed on a symlink: findings and no archive', async () => {
    const dir = join(tempDir(), 'demo');
    write(dir, { 'SKILL.md': '---\nname: demo\ndescription: d\n---\n' });
    symlinkSync('/etc/hostname', join(dir, 'leak'));
    const zip = await packSkillZip(dirSource(dir), 'demo');
    assert.equal(zip.bytes, undefined);
    assert.deepEqual(zip.diagnostics.map((d) => d.code), ['BUNDLE_SYMLINK']);
  });

  it('refuses a top-level folder name that is not one path segment', async () => {
    const dir = join(tempDir(), 'demo');
    write(dir, { 'SKILL.md': 'x' });
    for (const folder of ['', '..', 'a/b', '.']) {
      const zip = await packSkillZip(dirSource(dir), folder);
      assert.deepEqual(zip.diagnostics.map((d) => d.code), ['BUNDLE_PATH_INVALID'], folder);
    }
  });
});
