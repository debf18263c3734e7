// Messages that say what to do next: no command at all, --fix --json naming what it rewrote,
// JSON syntax errors in skillctl's own words on one line, pack's hint for a bundle without SKILL.md,
// and a SKILL.md that convert wrote for another version.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('messages that guide', () => {
  const tmp = tempDir('skillctl-guide-');
  let dir: string;

  before(() => {
    dir = realpathSync(tmp);
    const r = skillctl(['init', 'wc', '--yes', '--runtime', 'node', '--runtime-version', '20.19.0', '--description', 'Count words. Use when asked.'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
  });

  it('skillctl with no command: the help on stderr, exit 2; with --json a USAGE document', () => {
    const r = skillctl([]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.startsWith('Usage: skillctl [options] [command]\n'));
    assert.ok(r.stderr.endsWith('\nerror: no command given\n'));
    const j = skillctl(['--json']);
    assert.equal(j.code, 2);
    assert.deepEqual(JSON.parse(j.stdout), { error: { code: 'USAGE', message: 'no command given', hint: 'skillctl --help lists the commands' } });
    const help = skillctl(['--help']);
    assert.equal(help.code, 0);
    assert.ok(help.stdout.startsWith('Usage: skillctl'));
  });

  it('pack --format both of a skill.yaml bundle without SKILL.md: the hint is convert', () => {
    const r = skillctl(['pack', 'wc', '--format', 'both', '--out', 'dist'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      ['wc', '          error   AGENT_SKILL_MD_MISSING  missing required file: SKILL.md', '          hint: skillctl convert wc writes SKILL.md from the manifest, then pack again', '✖ wc was not packed', ''].join('\n'),
    );
  });

  it('a SKILL.md convert wrote goes stale with the version: validate and pack say so; convert --force mends it; --fix --json names the file it rewrote', async () => {
    assert.equal(skillctl(['convert', 'wc'], { cwd: dir }).code, 0);
    const manifest = join(dir, 'wc', 'skill.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('skill_version: 0.1.0', 'skill_version: 0.2.0'));
    const fixed = skillctl(['validate', '--fix', '--json', 'wc'], { cwd: dir });
    assert.equal(fixed.code, 0, fixed.stdout);
    const { results } = JSON.parse(fixed.stdout) as { results: { file: string; fixed?: unknown }[] };
    assert.deepEqual(results[0]?.fixed, { file: 'wc/skill.yaml', fields: ['manifest_digest'] });
    assert.equal(results[1]?.fixed, undefined, 'SKILL.md is never rewritten by --fix');

    const stale = [
      'wc/SKILL.md',
      '  6:27    warning SKILL_MD_STALE  SKILL.md was written by skillctl convert for skill_version 0.1.0; the manifest now says 0.2.0 /metadata/skillctl.skill_version',
      '          hint: skillctl convert wc --to skill-md --force writes it again from the manifest',
    ].join('\n');
    const v = skillctl(['validate', 'wc'], { cwd: dir });
    assert.equal(v.code, 0, 'a warning');
    assert.ok(v.stdout.startsWith(stale), v.stdout);
    const p = skillctl(['pack', 'wc', '--out', 'dist'], { cwd: dir });
    assert.equal(p.code, 0);
    assert.ok(p.stdout.startsWith(stale), p.stdout);

    assert.equal(skillctl(['convert', 'wc', '--to', 'skill-md', '--force'], { cwd: dir }).code, 0);
    assert.ok(!skillctl(['validate', 'wc'], { cwd: dir }).stdout.includes('SKILL_MD_STALE'));
  });

  it('a broken lock on stdin: one line in our words, at its line and column', () => {
    const r = skillctl(['verify-pins', '--lock', '-'], { input: '{"skills":\n [1,,2]}' });
    assert.equal(r.code, 2);
    assert.ok(r.stdout.includes("  2:5     error   LOCK_UNREADABLE  invalid JSON: unexpected ',' where a value was expected\n"), r.stdout + r.stderr);
  });

  it('a payload that is not JSON: PAYLOAD_NOT_JSON in our words', () => {
    const r = skillctl(['validate', '--contract', 'eval.output.v1', '--json', '-'], { input: '{"a": tru}' });
    assert.equal(r.code, 4);
    assert.ok(r.stdout.includes('"message": "not one plain JSON document: invalid JSON: unexpected \'t\' where a value was expected"'), r.stdout);
  });
});
