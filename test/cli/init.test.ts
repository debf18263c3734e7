import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateAgentSkill } from '../../src/core/agent-skills/index.js';
import { validateBundle } from '../../src/core/manifest/index.js';
import { json, skillctl } from '../helpers/cli.js';
import { KEY, skillctlInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/tmp.js';

describe('skillctl init, non-interactive', () => {
  it('--yes writes a skill.yaml bundle that passes validate at once', () => {
    const cwd = tempDir();
    const r = skillctl(['init', 'text-tools', '--yes', '--runtime-version', '3.12.4', '--description', 'Tidy text. Use when asked.'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /created text-tools\//);
    const v = skillctl(['validate', 'text-tools'], { cwd });
    assert.equal(v.code, 0, v.stdout);
    assert.match(v.stdout, /0 errors, 0 warnings/);
    assert.equal(statSync(join(cwd, 'text-tools', 'scripts', 'main.py')).mode & 0o777, 0o755);
  });

  it('--json reports the files written; --permission and --runtime are honoured', () => {
    const cwd = tempDir();
    const r = skillctl(
      ['init', 'fetch', '--json', '--id', 'acme.fetch', '--runtime', 'node', '--runtime-version', '20.19.0', '--permission', 'net.http=https://api.example.com/', '--description', 'Fetch.'],
      { cwd },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = json<{ diagnostics: { code: string; severity: string; pointer: string }[] }>(r);
    assert.deepEqual(
      { ...out, diagnostics: [] },
      {
        created: 'fetch',
        format: 'manifest',
        id: 'acme.fetch',
        runtime: 'node',
        runtime_version: '20.19.0',
        files: ['scripts/main.mjs', 'skill.yaml'],
        diagnostics: [],
      },
    );
    // The new skill is valid; it is not determinism-eligible until its net.http effect is declared.
    assert.deepEqual(
      out.diagnostics.map((d) => [d.severity, d.code, d.pointer]),
      [
        ['info', 'DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/requested_permissions/net.http'],
        ['info', 'DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/side_effect_fingerprint_fields'],
      ],
    );
  });

  it('writes an Agent Skills folder with --format skill-md', async () => {
    const cwd = tempDir();
    const r = skillctl(['init', 'tidy-text', '--format', 'skill-md', '--yes', '--description', 'Tidy text. Use when asked to clean up spacing.'], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(join(cwd, 'tidy-text')), ['SKILL.md']);
    assert.deepEqual((await validateAgentSkill(join(cwd, 'tidy-text'), { profile: 'strict' })).diagnostics, []);
  });

  it('never prompts without a terminal: missing flags are a usage error with a hint, and nothing is written', () => {
    const cwd = tempDir();
    for (const args of [['init', 'x-skill'], ['init', '--description', 'd'], ['init', 'x-skill', '--json']]) {
      const r = skillctl(args, { cwd });
      assert.equal(r.code, 2, args.join(' '));
      if (args.includes('--json')) assert.equal((json(r) as { error: { code: string } }).error.code, 'USAGE');
      else assert.match(r.stderr, /USAGE[\s\S]*hint: .*flag/);
    }
    assert.deepEqual(readdirSync(cwd), []);
  });

  it('refuses invalid answers before writing anything', () => {
    const cwd = tempDir();
    const cases = [
      ['init', 'Bad Id', '--yes', '--description', 'd'],
      ['init', 'x', '--yes', '--description', '   '],
      ['init', 'x', '--yes', '--description', 'd', '--permission', 'fs.read=../up'],
      ['init', 'x', '--yes', '--description', 'd', '--permission', 'root=/'],
      ['init', 'x', '--yes', '--description', 'd', '--format', 'skill-md', '--permission', 'env=HOME'],
      ['init', 'x', '--yes', '--description', 'd', '--runtime', 'none'],
      ['init', 'x', '--yes', '--description', 'd', '--skill-version', '1.0'],
    ];
    for (const args of cases) assert.equal(skillctl(args, { cwd }).code, 2, args.join(' '));
    assert.deepEqual(readdirSync(cwd), []);
  });

  it('refuses a folder that is not empty unless --force, which keeps the digests correct', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'busy'));
    writeFileSync(join(cwd, 'busy', 'notes.txt'), 'mine\n');
    const args = ['init', 'busy', '--yes', '--runtime-version', '3.12.4', '--description', 'Busy.'];
    const r = skillctl(args, { cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /OUTPUT_EXISTS/);
    assert.equal(existsSync(join(cwd, 'busy', 'skill.yaml')), false);
    const forced = skillctl([...args, '--force'], { cwd });
    assert.equal(forced.code, 0, forced.stderr);
    const v = await validateBundle(join(cwd, 'busy'));
    assert.equal(v.valid, true, JSON.stringify(v.diagnostics));
    assert.ok(v.files?.some((f) => f.path === 'notes.txt'), 'the existing file is covered by content_digest');
  });

  it('a file where a folder belongs (the target\'s parent, or scripts with --force): OUTPUT_UNWRITABLE, exit 2, not INTERNAL', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'afile'), 'mine\n');
    mkdirSync(join(cwd, 'busy'));
    writeFileSync(join(cwd, 'busy', 'scripts'), 'mine\n');
    for (const target of ['afile/sk', 'busy']) {
      const r = skillctl(['init', target, '--yes', '--runtime-version', '3.12.4', '--description', 'B.', '--force'], { cwd });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /OUTPUT_UNWRITABLE/);
    }
    assert.equal(existsSync(join(cwd, 'busy', 'skill.yaml')), false);
  });

  it('writes into an existing empty folder', () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'empty'));
    assert.equal(skillctl(['init', 'empty', '--yes', '--runtime-version', '3.12.4', '--description', 'E.'], { cwd }).code, 0);
    assert.deepEqual(readdirSync(join(cwd, 'empty')).sort(), ['scripts', 'skill.yaml']);
  });
});

describe('skillctl init in a terminal (answers typed at the prompts)', () => {
  it('asks for format, id, description, runtime, version and permissions, then writes a valid bundle', async () => {
    const cwd = tempDir();
    const r = skillctlInPty(
      ['init'],
      [
        { expect: 'Format', send: KEY.enter },
        { expect: 'Skill id', send: `acme.tidy${KEY.enter}` },
        { expect: 'Description', send: `Tidy text. Use when asked.${KEY.enter}` },
        { expect: 'Runtime', send: KEY.enter },
        { expect: 'Exact python version', send: `3.12.4${KEY.enter}` },
        { expect: 'Permissions', send: `${KEY.space}${KEY.enter}` },
        { expect: 'fs.read values', send: `data${KEY.enter}` },
        { expect: 'Create acme.tidy/', send: KEY.enter },
      ],
      { cwd },
    );
    assert.equal(r.failed_step, null, r.output);
    assert.equal(r.exit, 0, r.output);
    assert.match(r.output, /created acme\.tidy\//);
    const v = await validateBundle(join(cwd, 'acme.tidy'));
    assert.equal(v.valid, true, JSON.stringify(v.diagnostics));
    const ep = v.manifest?.entrypoints[0];
    assert.equal(ep?.runtime_version, '3.12.4');
    assert.deepEqual(ep?.requested_permissions, { 'fs.read': ['data'] });
  });

  it('writes an Agent Skills folder, re-asking after an invalid name', async () => {
    const cwd = tempDir();
    const r = skillctlInPty(
      ['init'],
      [
        { expect: 'Format', send: `${KEY.down}${KEY.enter}` },
        { expect: 'Skill name', send: `Bad Name${KEY.enter}` },
        { expect: 'lowercase', send: `${KEY.backspace.repeat(8)}tidy-text${KEY.enter}` },
        { expect: 'Description', send: `Tidy text. Use when asked to clean up spacing.${KEY.enter}` },
        { expect: 'Runtime', send: KEY.enter },
        { expect: 'Create tidy-text/', send: KEY.enter },
      ],
      { cwd },
    );
    assert.equal(r.failed_step, null, r.output);
    assert.equal(r.exit, 0, r.output);
    assert.deepEqual(readdirSync(join(cwd, 'tidy-text')), ['SKILL.md']);
    assert.equal((await validateAgentSkill(join(cwd, 'tidy-text'))).valid, true);
  });

  it('asks only what the flags leave open, and takes the folder name as the default id', () => {
    const cwd = tempDir();
    const r = skillctlInPty(
      ['init', 'notes-skill', '--format', 'skill-md', '--description', 'Take notes. Use when asked to.', '--runtime', 'none'],
      [
        { expect: 'Skill name', send: KEY.enter },
        { expect: 'Create notes-skill/', send: KEY.enter },
      ],
      { cwd },
    );
    assert.equal(r.failed_step, null, r.output);
    assert.equal(r.exit, 0, r.output);
    assert.doesNotMatch(r.output, /Format|Description|Runtime/);
    assert.ok(existsSync(join(cwd, 'notes-skill', 'SKILL.md')));
  });

  it('Ctrl-C at a prompt writes nothing and exits 2', () => {
    const cwd = tempDir();
    const r = skillctlInPty(['init'], [{ expect: 'Format', send: KEY.ctrlC }], { cwd });
    assert.equal(r.failed_step, null, r.output);
    assert.equal(r.exit, 2, r.output);
    assert.deepEqual(readdirSync(cwd), []);
  });

  it('declining at the end writes nothing', () => {
    const cwd = tempDir();
    const r = skillctlInPty(
      ['init', 'later', '--format', 'skill-md', '--description', 'Later.', '--runtime', 'none', '--id', 'later'],
      [{ expect: 'Create later/', send: `n${KEY.enter}` }],
      { cwd },
    );
    assert.equal(r.failed_step, null, r.output);
    assert.equal(r.exit, 0, r.output);
    assert.deepEqual(readdirSync(cwd), []);
  });

  it('--yes on a terminal asks nothing', () => {
    const cwd = tempDir();
    const r = skillctlInPty(['init', 'quiet-one', '--yes', '--format', 'skill-md', '--description', 'Quiet.'], [], { cwd });
    assert.equal(r.exit, 0, r.output);
    assert.doesNotMatch(r.output, /\?/);
    assert.ok(existsSync(join(cwd, 'quiet-one', 'SKILL.md')));
  });
});
