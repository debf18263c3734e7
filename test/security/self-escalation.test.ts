// Threat: a skill widens the policy of later runs. It plants a policy where a later run would
// find it, renames the policy's directory and refills it, replaces a granted directory with a
// symlink, or reads skillctl's own secrets through /proc. Each attack is refused with its code and
// exit status, and nothing outside the scratch folder changes. A skill's own folder in a skill
// root (as `pull` writes every file of a skill) holding `pins/skills.lock.json` and a policy was a
// project root for every skillctl started in it, its policy in force whatever the project's
// granted (until the stop of 2026-11-30).
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { snapshot } from '../helpers/project.js';
import { tempDir } from '../helpers/tmp.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

interface RunDoc {
  status: string;
  exit_code: number;
  output: unknown;
  policy: { source: string };
  diagnostics: { code: string; severity: string; message: string }[];
}

const errors = (d: RunDoc): string[] => [...new Set(d.diagnostics.filter((x) => x.severity === 'error').map((x) => x.code))].sort();
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

describe('threat: self-escalation (a skill widens the grant of later runs)', () => {
  const tmp = tempDir('skillctl-escalate-');
  let root: string;
  let proj: string;
  /** A project whose own policy lets skills write nothing, run under conf/ci.policy.yaml, which grants it whole. */
  let proj2: string;
  let outside: string;

  before(async () => {
    root = realpathSync(tmp);
    proj = join(root, 'proj');
    outside = join(root, 'outside');
    proj2 = join(root, 'proj2');
    await mkdir(join(proj, '.git'), { recursive: true });
    await mkdir(join(proj, '.skillctl'));
    await mkdir(join(proj, 'conf'));
    await mkdir(join(proj2, '.git'), { recursive: true });
    await mkdir(join(proj2, 'conf'));
    await mkdir(join(proj2, 'ws'));
    await writeFile(join(proj2, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
    await mkdir(join(proj, 'ws', 'in'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'OUTSIDE\n');
    await writeFile(join(proj, 'ws', 'in', 'note.txt'), 'inside\n');
    await writeFile(join(proj, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
    // A policy named with --policy where the project's own policy lets skills write would be
    // refused (POLICY_FILE_WRITABLE): the others are kept in proj/.skillctl/, or in proj2.
    await writeFile(join(proj2, 'conf', 'ci.policy.yaml'), `version: 1\npermissions:\n  fs.read: [${proj2}]\n  fs.write: [${proj2}]\n`);
    // A python skill that does what its input says to the file system, and reports what happened:
    // python, so that nothing but the kernel and the sandbox stands between it and the files.
    const main = [
      'import json, os, sys',
      'r = []',
      'for op in json.load(sys.stdin)["ops"]:',
      '    try:',
      '        if op[0] == "rename": os.rename(op[1], op[2])',
      '        elif op[0] == "mkdir": os.mkdir(op[1])',
      '        else: open(op[1], "w").write(op[2])',
      '        r.append("ok")',
      '    except OSError as e:',
      '        r.append(__import__("errno").errorcode[e.errno])',
      'print(json.dumps({"ok": ",".join(r)}))',
      '',
    ].join('\n');
    for (const dir of [proj, proj2]) await writeBundle(join(dir, 'tool'), {
      entrypoints: [
        entry({
          runtime: 'python',
          runtime_version: PYTHON_VERSION,
          command: 'python3 main.py',
          output_schema: OK,
          requested_permissions: { 'fs.read': ['.'], 'fs.write': ['.'] },
          input_schema: { type: 'object', properties: { path: { type: 'string' }, ops: { type: 'array' } } },
        }),
      ],
      files: { 'main.py': main },
    });
  });

  it('a policy planted in a subdirectory never governs runs started there', async () => {
    const sub = join(proj, 'ws', 'planted');
    await mkdir(sub);
    await writeFile(join(sub, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n');
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--no-audit'], { cwd: sub, input: JSON.stringify({ path: join(outside, 'secret.txt') }) });
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, doc.status, errors(doc)], [3, 'denied', ['POLICY_PATH_DENIED']]);
    assert.equal(doc.policy.source, join(proj, 'skillctl.policy.yaml'), 'the project root governs');
    await rm(sub, { recursive: true });
  });

  it('a process skill that plants a project root in a subdirectory (a .git or a lock, and a policy) does not govern runs started there (POLICY_ROOT_WRITABLE, exit 2)', async () => {
    const policyText = 'version: 1\npermissions:\n  fs.read: [/]\n';
    const at = (path: string): string => join(proj, path);
    for (const [dir, marker] of [
      ['ws/repo', [['mkdir', at('ws/repo')], ['mkdir', at('ws/repo/.git')]]],
      ['ws/locked', [['mkdir', at('ws/locked')], ['mkdir', at('ws/locked/pins')], ['write', at('ws/locked/pins/skills.lock.json'), `${JSON.stringify({ lock_version: 'skillctl.lock.v1', min_signers: 0, packs: [], skills: [] }, null, 2)}\n`]]],
    ] as const) {
      // The planting run: the project's own policy lets the skill write the whole project.
      // bubblewrap holds a policy's and a lock's names only where it is told of them, so the run
      // looks for them once the program ends: the planted policy and lock are removed, the run
      // denied (a new repository is left).
      const ops = [...marker, ['write', at(`${dir}/skillctl.policy.yaml`), policyText]];
      const plant = skillctl(['run', './tool', '--sandbox', 'bwrap', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ ops }) });
      assert.deepEqual([plant.code, errors(json<RunDoc>(plant))], [3, ['POLICY_PATH_PROTECTED']], plant.stdout);
      assert.deepEqual([existsSync(at(`${dir}/skillctl.policy.yaml`)), existsSync(at('ws/locked/pins/skills.lock.json'))], [false, false]);
      // What an unconfined program of such a run (--sandbox none, allow_unsandboxed) could still
      // plant: the nested-root check holds the later run.
      for (const [op, path, text] of [...marker, ['write', at(`${dir}/skillctl.policy.yaml`), policyText]] as readonly (readonly string[])[]) {
        if (op === 'mkdir') await mkdir(path as string, { recursive: true });
        else await writeFile(path as string, text as string);
      }
      // The later run, started in the planted root, asks for the outside secret.
      const r = skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--no-audit'], { cwd: join(proj, dir), input: JSON.stringify({ path: join(outside, 'secret.txt') }) });
      const doc = json<RunDoc>(r);
      assert.deepEqual([r.code, doc.status, errors(doc)], [2, 'policy_invalid', ['POLICY_ROOT_WRITABLE']], r.stdout);
      assert.ok(!r.stdout.includes('OUTSIDE') && !r.stderr.includes('OUTSIDE'), 'the secret was read');
      await rm(join(proj, dir), { recursive: true });
    }
  });

  const emptyLock = (extra: Record<string, unknown> = {}): string => `${JSON.stringify({ lock_version: 'skillctl.lock.v1', min_signers: 0, ...extra, packs: [], skills: [] }, null, 2)}\n`;

  /** Plants a lock and a policy granting `/` in `folder` (as a pull writes a skill's files), then runs a read of the secret from there: refused. */
  async function refusedInSkillFolder(folder: string, named: RegExp): Promise<void> {
    await mkdir(join(folder, 'pins'), { recursive: true });
    await writeFile(join(folder, 'pins', 'skills.lock.json'), emptyLock());
    await writeFile(join(folder, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n');
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--no-audit'], { cwd: folder, input: JSON.stringify({ path: join(outside, 'secret.txt') }) });
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, doc.status, errors(doc)], [2, 'policy_invalid', ['POLICY_ROOT_WRITABLE']], r.stdout);
    assert.match(doc.diagnostics[0]?.message ?? '', named);
    assert.ok(!r.stdout.includes('OUTSIDE') && !r.stderr.includes('OUTSIDE'), 'the secret was read');
  }

  it('a skill folder in a skill root of the project, holding a lock and a policy of its own (as a pull writes them), does not govern runs started in it (POLICY_ROOT_WRITABLE, exit 2)', async () => {
    for (const dir of ['.agents/skills/evil', 'skills/evil']) {
      await refusedInSkillFolder(join(proj2, dir), /skill root/);
      await rm(join(proj2, dir.split('/')[0] as string), { recursive: true });
    }
  });

  it("a skill folder in a skill root the project's lock names (skill_roots: tools/skills), holding a lock and a policy of its own, does not govern runs started in it (POLICY_ROOT_WRITABLE, exit 2)", async () => {
    await mkdir(join(proj2, 'pins'));
    await writeFile(join(proj2, 'pins', 'skills.lock.json'), emptyLock({ skill_roots: ['tools/skills'] }));
    try {
      await refusedInSkillFolder(join(proj2, 'tools', 'skills', 'evil'), /tools\/skills/);
    } finally {
      await rm(join(proj2, 'tools'), { recursive: true, force: true });
      await rm(join(proj2, 'pins'), { recursive: true });
    }
  });

  it('a project root planted by a skill of a run under another policy the project keeps (ci.policy.yaml at its root) does not govern either (POLICY_ROOT_WRITABLE, exit 2)', async () => {
    // proj2's own policy lets skills write nothing; its ci policy lets them write ws/.
    const ci = join(proj2, 'plant.policy.yaml');
    await writeFile(ci, 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [ws]\n');
    const repo = join(proj2, 'ws', 'repo');
    const ops = [['mkdir', repo], ['mkdir', join(repo, '.git')], ['write', join(repo, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n']];
    const plant = skillctl(['run', './tool', '--policy', 'plant.policy.yaml', '--sandbox', 'bwrap', '--input', '-', '--json', '--no-audit'], { cwd: proj2, input: JSON.stringify({ ops }) });
    // The planted policy is removed once the program ends (the run denied); an unconfined
    // program could leave it, as the test does.
    assert.deepEqual([plant.code, errors(json<RunDoc>(plant)), existsSync(join(repo, 'skillctl.policy.yaml'))], [3, ['POLICY_PATH_PROTECTED'], false], plant.stdout);
    await writeFile(join(repo, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n');
    const r = skillctl(['run', 'fs.read_text', '--input', '-', '--json', '--no-audit'], { cwd: repo, input: JSON.stringify({ path: join(outside, 'secret.txt') }) });
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, doc.status, errors(doc)], [2, 'policy_invalid', ['POLICY_ROOT_WRITABLE']], r.stdout);
    assert.match(doc.diagnostics[0]?.message ?? '', /plant\.policy\.yaml/);
    assert.ok(!r.stdout.includes('OUTSIDE') && !r.stderr.includes('OUTSIDE'), 'the secret was read');
    await rm(repo, { recursive: true });
    await rm(ci);
  });

  it('a policy named with --policy that a skill of the project may rewrite is not obeyed (POLICY_FILE_WRITABLE, exit 2); one kept in .skillctl/ is held and obeyed', async () => {
    const narrow = 'version: 1\npermissions:\n  fs.read: [ws]\n';
    const readSecret = (policy: string) =>
      skillctl(['run', 'fs.read_text', '--policy', policy, '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ path: join(outside, 'secret.txt') }) });
    const widen = (path: string) =>
      skillctl(['run', 'fs.write_patch', '--input', '-', '--json', '--no-audit'], {
        cwd: proj,
        input: JSON.stringify({ unified_diff: `--- a/${path}\n+++ b/${path}\n@@ -1,3 +1,3 @@\n version: 1\n permissions:\n-  fs.read: [ws]\n+  fs.read: [/]\n` }),
      });
    // A CI policy kept in the project: the project's own policy lets every skill rewrite it.
    await writeFile(join(proj, 'conf', 'narrow-ci.policy.yaml'), narrow);
    assert.equal(widen('conf/narrow-ci.policy.yaml').code, 0);
    const r = readSecret('conf/narrow-ci.policy.yaml');
    assert.deepEqual([r.code, json<RunDoc>(r).status, errors(json<RunDoc>(r))], [2, 'policy_invalid', ['POLICY_FILE_WRITABLE']], r.stdout);
    assert.ok(!r.stdout.includes('OUTSIDE') && !r.stderr.includes('OUTSIDE'), 'the secret was read');
    // The same policy in .skillctl/, where every run of the project holds it: neither a built-in
    // nor a process may rewrite it, and it governs, its relative paths naming the project.
    const held = join(proj, '.skillctl', 'ci.policy.yaml');
    await writeFile(held, narrow);
    const patched = widen('.skillctl/ci.policy.yaml');
    assert.deepEqual([patched.code, errors(json<RunDoc>(patched))], [3, ['POLICY_PATH_PROTECTED']], patched.stdout);
    const wide = 'version: 1\npermissions:\n  fs.read: [/]\n';
    const ops = [['write', held, wide], ['write', join(proj, '.skillctl', 'new.policy.yaml'), wide]];
    const proc = skillctl(['run', './tool', '--sandbox', 'bwrap', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ ops }) });
    assert.deepEqual([proc.code, (json<RunDoc>(proc).output as { ok: string }).ok], [0, 'EROFS,EROFS'], proc.stdout);
    assert.deepEqual([await readFile(held, 'utf8'), existsSync(join(proj, '.skillctl', 'new.policy.yaml'))], [narrow, false]);
    const denied = readSecret('.skillctl/ci.policy.yaml');
    assert.deepEqual([denied.code, errors(json<RunDoc>(denied)), json<RunDoc>(denied).policy.source], [3, ['POLICY_PATH_DENIED'], held], denied.stdout);
    const inside = skillctl(['run', 'fs.read_text', '--policy', '.skillctl/ci.policy.yaml', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ path: 'ws/in/note.txt' }) });
    assert.deepEqual([inside.code, (json<RunDoc>(inside).output as { text: string }).text], [0, 'inside\n'], inside.stdout);
    await rm(held);
  });

  it('fs.write_patch cannot create a policy, a lock or a git hook anywhere (POLICY_PATH_PROTECTED, exit 3)', async () => {
    const before = await snapshot(proj);
    for (const path of ['ws/skillctl.policy.yaml', 'ws/pins/skills.lock.json', '.git/hooks/pre-commit', 'ws/.bashrc', '.skillctl/audit.jsonl']) {
      const diff = `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+planted\n`;
      const r = skillctl(['run', 'fs.write_patch', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ unified_diff: diff }) });
      assert.deepEqual([r.code, errors(json<RunDoc>(r))], [3, ['POLICY_PATH_PROTECTED']], path);
    }
    assert.deepEqual(await snapshot(proj), before);
  });

  it("fs.write_patch cannot plant code in skillctl's own installation: a bundle's code cache, a shipped skill, a dependency (POLICY_PATH_PROTECTED, exit 3)", async () => {
    // skillctl is often installed inside the project a skill may write: what it plants there would
    // run in the next skillctl, outside every sandbox. Here the checkout running the tests is the
    // install, the run starts inside it, and the policy grants it whole.
    const policy = join(root, 'install-write.policy.yaml');
    await writeFile(policy, `version: 1\npermissions:\n  fs.read: [${ROOT}]\n  fs.write: [${ROOT}]\n`);
    for (const path of ['dist/cmd/planted.cjs.v8cache', 'bin/planted.js', 'manifests/default/fs.read_text/planted.py', 'node_modules/fflate/planted.js']) {
      const diff = `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+planted\n`;
      const r = skillctl(['run', 'fs.write_patch', '--policy', policy, '--input', '-', '--json', '--no-audit'], { cwd: ROOT, input: JSON.stringify({ unified_diff: diff }) });
      assert.deepEqual([r.code, errors(json<RunDoc>(r))], [3, ['POLICY_PATH_PROTECTED']], path);
      assert.equal(existsSync(join(ROOT, path)), false, path);
    }
  });

  it('under bubblewrap the policy directory can be neither renamed nor refilled, nor the policy rewritten', async () => {
    const conf = join(proj2, 'conf');
    const ops = [
      ['rename', conf, join(proj2, 'conf.old')],
      ['mkdir', join(proj2, 'conf', 'extra')],
      ['write', join(conf, 'ci.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n'],
      ['write', join(proj2, 'ws', 'free.txt'), 'the rest of the grant is writable'],
    ];
    const r = skillctl(['run', './tool', '--policy', 'conf/ci.policy.yaml', '--sandbox', 'bwrap', '--input', '-', '--json', '--no-audit'], { cwd: proj2, input: JSON.stringify({ ops }) });
    assert.equal(r.code, 0, r.stdout);
    const results = (json<RunDoc>(r).output as { ok: string }).ok.split(',');
    assert.ok(['EBUSY', 'EROFS', 'EPERM'].includes(results[0] as string), `rename: ${results[0]}`);
    assert.equal(results[1], 'EROFS');
    assert.equal(results[2], 'EROFS');
    assert.equal(results[3], 'ok');
    assert.equal(await readFile(join(conf, 'ci.policy.yaml'), 'utf8'), `version: 1\npermissions:\n  fs.read: [${proj2}]\n  fs.write: [${proj2}]\n`);
    assert.equal(existsSync(join(proj2, 'conf.old')), false);
  });

  it("shell.exec_safe's command cannot overwrite the policy in force, even inside its fs.write grant (the command fails, exit 0)", async () => {
    const policy = join(proj2, 'conf', 'sort.write.policy.yaml');
    const text = `version: 1\npermissions:\n  fs.read: [${proj2}]\n  fs.write: [${proj2}]\n  exec: [sort]\n`;
    await writeFile(policy, text);
    await writeFile(join(proj2, 'ws', 'lines.txt'), 'b\na\n');
    const r = skillctl(['run', 'shell.exec_safe', '--policy', policy, '--input', '-', '--json', '--no-audit'], { cwd: proj2, input: JSON.stringify({ argv: ['sort', '-o', policy, 'ws/lines.txt'] }) });
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, errors(doc)], [0, []]);
    assert.notEqual((doc.output as { exit_code: number }).exit_code, 0);
    assert.equal(await readFile(policy, 'utf8'), text);
  });

  it('a protected path that did not exist (no lock yet) and that a process created is removed, the run denied (exit 3)', async () => {
    const ops = [
      ['mkdir', join(proj2, 'pins')],
      ['write', join(proj2, 'pins', 'skills.lock.json'), '{"planted":true}'],
    ];
    const r = skillctl(['run', './tool', '--policy', 'conf/ci.policy.yaml', '--sandbox', 'bwrap', '--input', '-', '--json', '--no-audit'], { cwd: proj2, input: JSON.stringify({ ops }) });
    const doc = json<RunDoc>(r);
    assert.deepEqual([r.code, doc.status, errors(doc), doc.output], [3, 'denied', ['POLICY_PATH_PROTECTED'], null]);
    assert.equal(existsSync(join(proj2, 'pins')), false, 'what it planted is gone');
  });

  it('a granted directory replaced by a symlink is refused, not followed (POLICY_PATH_CHANGED, exit 3)', async () => {
    await writeFile(join(proj, '.skillctl', 'narrow.policy.yaml'), `version: 1\npermissions:\n  fs.read: [${proj}/ws/in]\n  fs.write: [${proj}/ws]\n`);
    const read = (): { code: number; doc: RunDoc } => {
      const r = skillctl(['run', 'fs.read_text', '--policy', '.skillctl/narrow.policy.yaml', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ path: 'ws/in/secret.txt' }) });
      return { code: r.code, doc: json<RunDoc>(r) };
    };
    assert.deepEqual(errors(read().doc), ['RUN_SKILL_FAILED', 'SKILL_FILE_NOT_FOUND']);
    // What a skill allowed to write ws could do between two runs.
    await rm(join(proj, 'ws', 'in'), { recursive: true });
    await symlink(outside, join(proj, 'ws', 'in'));
    const after = read();
    assert.deepEqual([after.code, after.doc.status, errors(after.doc)], [3, 'denied', ['POLICY_PATH_CHANGED']]);
    assert.doesNotMatch(JSON.stringify(after.doc), /OUTSIDE/);
    await rm(join(proj, 'ws', 'in'));
    await mkdir(join(proj, 'ws', 'in'));
  });

  it("skillctl's own environment is not readable through /proc, even with fs.read: [/] (POLICY_PATH_DENIED, exit 3)", async () => {
    await writeFile(join(proj, '.skillctl', 'wide.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [/]\n');
    for (const path of ['/proc/self/environ', '/proc/1/environ', '/sys/kernel/hostname', '/dev/zero']) {
      const r = skillctl(['run', 'fs.read_text', '--policy', '.skillctl/wide.policy.yaml', '--input', '-', '--json', '--no-audit'], {
        cwd: proj,
        input: JSON.stringify({ path, encoding: 'utf-16le' }),
        env: { CLOUD_SECRET_KEY: 'AKIA-SHOULD-NOT-LEAK' },
      });
      const doc = json<RunDoc>(r);
      assert.deepEqual([r.code, errors(doc)], [3, ['POLICY_PATH_DENIED']], path);
      assert.doesNotMatch(r.stdout, /AKIA-SHOULD-NOT-LEAK/);
    }
  });

  it('an allowed command cannot be steered by an abbreviated denied option (POLICY_EXEC_ARGUMENT_DENIED, exit 3)', async () => {
    await writeFile(
      join(proj, '.skillctl', 'sort.policy.yaml'),
      `version: 1\npermissions:\n  fs.read: [${proj}]\n  exec:\n    - command: sort\n      deny_args: ["--compress-program*", "--output*", "-o*", "-T*", "--temporary-directory*"]\n`,
    );
    const before = await snapshot(outside);
    for (const argv of [
      ['sort', '--compress-prog=/bin/sh', 'a'],
      ['sort', '--outp', join(outside, 'pwn.txt'), 'a'],
      ['sort', '--outp=' + join(outside, 'pwn.txt'), 'a'],
      ['sort', '-ro', join(outside, 'pwn.txt'), 'a'],
      ['sort', '--tem=' + outside, 'a'],
    ]) {
      const r = skillctl(['run', 'shell.exec_safe', '--policy', '.skillctl/sort.policy.yaml', '--input', '-', '--json', '--no-audit'], { cwd: proj, input: JSON.stringify({ argv }) });
      assert.deepEqual([r.code, errors(json<RunDoc>(r))], [3, ['POLICY_EXEC_ARGUMENT_DENIED']], argv.join(' '));
    }
    assert.deepEqual(await snapshot(outside), before);
  });
});
