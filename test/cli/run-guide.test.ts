// `run` that guides (docs/commands/run.md): the ids it accepts (--list), "did you mean", a refusal
// while a built-in runs that says where to grant it (and keeps the value out of the audit record),
// input findings that name the field and types, headings that match the finding.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('skillctl run guides the user', () => {
  const tmp = tempDir('skillctl-run-guide-');
  let project: string;
  let bare: string;

  before(async () => {
    project = join(realpathSync(tmp), 'project');
    bare = join(realpathSync(tmp), 'bare');
    await mkdir(join(project, '.git'), { recursive: true });
    await mkdir(bare);
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
    await writeFile(join(project, 'notes.txt'), 'hello\n');
    // A project skill, pinned twice: the newer version is what `run hello` picks.
    for (const v of ['0.1.0', '0.2.0']) {
      const r = skillctl(['init', `hello-${v}`, '--yes', '--runtime', 'node', '--runtime-version', '20.19.0', '--id', 'hello', '--skill-version', v, '--description', 'Say hello. Use when greeted.'], { cwd: project });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(skillctl(['pin', `hello-${v}`], { cwd: project }).code, 0);
    }
  });

  it('run --list: the project pins, then the built-ins, with versions and origins', () => {
    const r = skillctl(['run', '--list'], { cwd: project });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^SKILL ID +VERSION +ORIGIN +SOURCE +ABOUT$/);
    const row = (id: string, v: string): string | undefined => lines.find((l) => l.startsWith(`${id} `) && l.includes(` ${v} `));
    assert.match(row('hello', '0.2.0') ?? '', /^hello +0\.2\.0 +project +hello-0\.2\.0$/);
    assert.match(row('hello', '0.1.0') ?? '', /^hello +0\.1\.0 +project +hello-0\.1\.0 +run it as hello@0\.1\.0$/);
    assert.match(row('fs.read_text', '0.1.0') ?? '', /^fs\.read_text +0\.1\.0 +built-in +builtin:fs\.read_text +Read a text file/);
    assert.ok(lines.findIndex((l) => l.startsWith('hello ')) < lines.findIndex((l) => l.startsWith('json.validate ')), 'sorted by id');
  });

  it('run --list --json: one document, origins as a run names them', () => {
    const r = skillctl(['run', '--list', '--json'], { cwd: project });
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.stdout) as { skills: { skill_id: string; skill_version: string; origin: string; source: string; selected: boolean; pinned: boolean }[]; diagnostics: unknown[] };
    assert.deepEqual(
      doc.skills.filter((s) => s.skill_id === 'hello').map(({ skill_version, origin, source, selected, pinned }) => ({ skill_version, origin, source, selected, pinned })),
      [
        { skill_version: '0.2.0', origin: 'lock', source: 'hello-0.2.0', selected: true, pinned: true },
        { skill_version: '0.1.0', origin: 'lock', source: 'hello-0.1.0', selected: false, pinned: true },
      ],
    );
    const builtin = doc.skills.find((s) => s.skill_id === 'fs.read_text');
    assert.equal(builtin?.origin, 'default');
    assert.equal(builtin?.selected, true);
    assert.deepEqual(doc.diagnostics, []);
  });

  it('run --list takes no target; run without one says how to find one', () => {
    const withTarget = skillctl(['run', '--list', 'fs.read_text']);
    assert.equal(withTarget.code, 2);
    assert.equal(withTarget.stderr, 'error USAGE: --list takes no target (got fs.read_text)\n  hint: skillctl run --list, then skillctl run <skill_id>\n');
    const none = skillctl(['run']);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, "error USAGE: missing required argument 'target'\n  hint: name a skill id, a bundle directory or an archive; skillctl run --list shows the skill ids\n");
  });

  it('a misspelt skill id gets "did you mean", under its own heading', () => {
    const r = skillctl(['run', 'fs.read_tre', '--no-audit'], { cwd: bare });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      [
        'fs.read_tre',
        '          error   RUN_SKILL_NOT_FOUND  no skill fs.read_tre in the default bundle',
        '          hint: did you mean fs.read_tree? skillctl run --list shows the skill ids; pin a bundle with skillctl pin, or run its directory (./path)',
        '',
      ].join('\n'),
    );
  });

  it('a refusal while a built-in runs names the policy file and the entry; the audit record keeps neither the value nor the hint', async () => {
    const auditFile = join(project, '.skillctl', 'guide.jsonl');
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--audit', auditFile], { cwd: project, input: '{"path": "/etc/hostname"}' });
    assert.equal(r.code, 3);
    assert.equal(
      r.stderr,
      [
        'fs.read_text',
        '          error   POLICY_PATH_DENIED  read /etc/hostname: fs.read: the path lies outside the granted fs.read paths',
        `          hint: grant it in ${join(project, 'skillctl.policy.yaml')}: add the path, or a directory above it, to permissions.fs.read`,
        '',
      ].join('\n'),
    );
    const log = await readFile(auditFile, 'utf8');
    assert.ok(!log.includes('/etc/hostname'), 'the refused path is not audited');
    assert.ok(!log.includes('grant it in'), 'hints are not audited');
    assert.ok(log.includes('"reason":"fs.read: the path lies outside the granted fs.read paths"'));
  });

  it('under the default policy, the hint says where a policy file is read', () => {
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--no-audit'], { cwd: bare, input: '{"path": "/etc/hostname"}' });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /\n {10}hint: grant it in skillctl\.policy\.yaml at the project root \(or a file given with --policy\): add the path, or a directory above it, to permissions\.fs\.read\n$/);
  });

  it('a permission the manifest requires and the policy does not grant: the hint names the entry, before anything runs', () => {
    const r = skillctl(['run', 'git.status', '--no-audit'], { cwd: bare });
    assert.equal(r.code, 3);
    assert.equal(
      r.stderr,
      [
        'builtin:git.status/skill.yaml',
        '          error   POLICY_PERMISSION_DENIED  required exec "git": not granted by the host policy /entrypoints/0/required_permissions/exec',
        '          hint: grant it in skillctl.policy.yaml at the project root (or a file given with --policy): add "git" to permissions.exec',
        '',
      ].join('\n'),
    );
  });

  it('input of the wrong type names the field, the type wanted and the type given', () => {
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--no-audit'], { cwd: project, input: '{"path": 1, "max_byte": 8}' });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      [
        'input',
        "          error   RUN_INPUT_INVALID  the input does not conform to the entrypoint's input_schema",
        '          error   SCHEMA_VALUE_INVALID  property `max_byte` is not allowed /max_byte',
        '          hint: did you mean `max_bytes`?',
        '          error   SCHEMA_VALUE_INVALID  `path` must be a string, not an integer (1) /path',
        '          hint: path must be a string; quote it',
        '',
      ].join('\n'),
    );
  });

  it('input that is not JSON is the input\'s own finding, one line, at its line and column', () => {
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--no-audit', '--json'], { cwd: project, input: '{"path":\n "a",,}' });
    assert.equal(r.code, 2);
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; message: string; file: string; line: number; column: number }[] };
    assert.deepEqual(
      doc.diagnostics.map(({ code, message, file, line, column }) => ({ code, message, file, line, column })),
      [{ code: 'RUN_INPUT_INVALID', message: "the input is not JSON: unexpected ',' where a property name in double quotes was expected", file: 'input', line: 2, column: 6 }],
    );
  });

  it("a skill's own failure goes under the skill's heading, not (input)", () => {
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--no-audit'], { cwd: project, input: '{"path": "nope.txt"}' });
    assert.equal(r.code, 1);
    assert.ok(r.stderr.startsWith('fs.read_text\n          error   RUN_SKILL_FAILED  the skill reported SKILL_FILE_NOT_FOUND'), r.stderr);
    assert.ok(!r.stderr.includes('(input)'));
  });
});
