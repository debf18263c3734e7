// Threat: environment (a skill reads secrets from the environment skillctl was started with).
// skillctl runs with cloud, GitHub and npm credentials in its environment. A node skill prints
// its environment, or asks for a credential the policy does not grant, or reads skillctl's
// environment through /proc; shell.exec_safe's command prints its environment; git.status is
// handed GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE by a policy that passes them. The skill sees
// PATH and the variables the policy grants, nothing else, and no credential reaches its output
// or the audit record. /proc/self/environ through fs.read_text: self-escalation.test.ts.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { attackRows, runTarget, scratch, SECRET, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { seedRepo } from '../helpers/git-repo.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

/** What skillctl is started with: credentials an agent's host typically holds. */
const AMBIENT = { HOME: '/home/tester', AWS_SECRET_ACCESS_KEY: SECRET, GITHUB_TOKEN: `ghp_${SECRET}`, NPM_TOKEN: `npm_${SECRET}` };
const POLICY = 'env.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };
const READ_STDIN = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>main(JSON.parse(s)));";

/** A node entrypoint running `main(input)` (its output `{ok}`), with `over` merged into the entrypoint. */
async function nodeSkill(dir: string, main: string, over: Record<string, unknown> = {}): Promise<void> {
  await writeBundle(dir, {
    entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, ...over })],
    files: { 'main.js': `${READ_STDIN}function main(i){${main}}` },
  });
}

const run = (target: string, input: unknown, sandbox: 'bwrap' | 'none' | 'auto' = 'auto') => (sc: Scratch): Promise<Ran> =>
  runTarget(target, input, { cwd: sc.work, policy: POLICY, sandbox, env: AMBIENT, audit: join(sc.work, 'audit.jsonl') });
/** The names the skill saw, PWD (bubblewrap's) left out. */
const saw = (names: string[]) => (r: Ran): void => assert.deepEqual((r.output as { ok: string }).ok.split(';').filter((n) => n !== 'PWD'), names);
const execSaw = (names: string[]) => (r: Ran): void =>
  assert.deepEqual((JSON.parse((r.output as { stdout: string }).stdout) as string[]).filter((n) => n !== 'PWD' && !n.startsWith('NODE_')), names);
const PRINT_NAMES = 'console.log(JSON.stringify(Object.keys(process.env).sort()))';

const rows: Attack[] = (['bwrap', 'none'] as const).flatMap((sandbox): Attack[] => [
  { what: `--sandbox ${sandbox}: a node skill prints its environment`, code: null, exit: 0, attempt: run('./bundles/env', {}, sandbox), check: saw(['HOME', 'LC_ALL', 'PATH', 'PYTHONIOENCODING', 'SKILLCTL_CWD', 'TZ']) },
  {
    what: `--sandbox ${sandbox}: shell.exec_safe's command prints its environment`,
    code: null,
    exit: 0,
    attempt: run('shell.exec_safe', { argv: ['node', '-e', PRINT_NAMES] }, sandbox),
    // HOME is granted, but shell.exec_safe does not declare it: its program gets only the context.
    check: execSaw(['LC_ALL', 'PATH', 'PYTHONIOENCODING', 'TZ']),
  },
]);

rows.push(
  { what: 'a node skill that requests a credential the policy does not grant: runs without it', code: null, exit: 0, attempt: run('./bundles/asks', {}), check: saw(['HOME', 'LC_ALL', 'PATH', 'PYTHONIOENCODING', 'SKILLCTL_CWD', 'TZ']) },
  { what: 'a node skill that requires a credential the policy does not grant: refused before it runs', code: 'POLICY_PERMISSION_DENIED', exit: 3, attempt: run('./bundles/needs', {}) },
  {
    what: "--sandbox bwrap: a python skill reads skillctl's environment through /proc (its parent, pid 1, itself)",
    code: null,
    exit: 0,
    attempt: run('./bundles/proc', {}, 'bwrap'),
    check: (r) => assert.deepEqual(Object.keys(JSON.parse((r.output as { ok: string }).ok) as Record<string, string>), ['parent', 'init', 'self']),
  },
  {
    what: 'git.status handed GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE of another repository by the policy: ignored',
    code: null,
    exit: 0,
    attempt: (sc) =>
      runTarget('git.status', {}, { cwd: join(sc.work, 'repo'), policy: join(sc.work, 'git.policy.yaml'), env: { GIT_DIR: join(sc.outside, 'other', '.git'), GIT_WORK_TREE: join(sc.outside, 'other'), GIT_INDEX_FILE: join(sc.outside, 'other', '.git', 'index') } }),
    check: (r) => assert.deepEqual((r.output as { untracked: string[] }).untracked, ['c.txt']),
  },
);

describe('environment: a skill sees PATH and the variables the policy grants, never ambient credentials', () => {
  const s = scratch('skillctl-attack-env-');
  before(async () => {
    const b = (name: string): string => join(s.work, 'bundles', name);
    await nodeSkill(b('env'), "process.stdout.write(JSON.stringify({ok:Object.keys(process.env).sort().join(';')}))", { requested_permissions: { env: ['HOME'] }, required_environment_variables: ['HOME'] });
    await nodeSkill(b('asks'), "process.stdout.write(JSON.stringify({ok:Object.keys(process.env).sort().join(';')}))", {
      requested_permissions: { env: ['HOME', 'AWS_SECRET_ACCESS_KEY'] },
      required_environment_variables: ['HOME'],
    });
    await nodeSkill(b('needs'), "process.stdout.write(JSON.stringify({ok:process.env.AWS_SECRET_ACCESS_KEY??''}))", {
      requested_permissions: { env: ['AWS_SECRET_ACCESS_KEY'] },
      required_permissions: { env: ['AWS_SECRET_ACCESS_KEY'] },
    });
    // Python (node's permission model would refuse /proc itself): each environ file as it reads
    // it (the row fails if the secret is in it), or the error.
    const main = [
      'import errno, json, os',
      'r = {}',
      'for k, p in [("parent", "/proc/%d/environ" % os.getppid()), ("init", "/proc/1/environ"), ("self", "/proc/self/environ")]:',
      '    try:',
      '        r[k] = open(p, "rb").read().decode("utf-8", "replace")',
      '    except OSError as e:',
      '        r[k] = errno.errorcode[e.errno]',
      'print(json.dumps({"ok": json.dumps(r)}))',
      '',
    ].join('\n');
    await writeBundle(b('proc'), { entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK })], files: { 'main.py': main } });
    await writeFile(join(s.work, POLICY), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [node]\n  env: [HOME]\n');
    await seedRepo(join(s.work, 'repo'));
    await seedRepo(join(s.outside, 'other'));
    await writeFile(join(s.outside, 'other', 'other-only.txt'), 'x\n');
    await writeFile(join(s.work, 'git.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [repo]\n  exec: [git]\n  env: [GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE]\n');
  });

  attackRows(rows, s);

  it('the audit records of these runs hold no credential', async () => {
    const log = await readFile(join(s.work, 'audit.jsonl'), 'utf8');
    assert.ok(log.trim().split('\n').length >= 10, 'the runs above were recorded');
    assert.ok(!log.includes(SECRET));
  });
});
