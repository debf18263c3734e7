// Threat: protected paths moved or planted (git's configuration renamed aside and refilled, a git link or a repository planted, the directory above the policy renamed).
// What the next git command or skillctl run would obey, so that a program runs outside every sandbox.
// Each runtime with a write grant tries: a WASI command (path_rename, path_open, path_create_directory),
// a provenact module (fs_write_file), a built-in (fs.write_patch), a python process and the program
// shell.exec_safe starts (both in bubblewrap). Each attempt is refused with its code, nothing it aimed
// at changes, and `git status` afterwards runs no planted program. What stays allowed is tested too:
// writing inside .git, renaming an ordinary directory.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { writeLock } from '../helpers/run.js';
import { fsToolBundle } from '../helpers/fs-tool.js';
import { compileWat } from '../helpers/wat.js';

const NOTCAPABLE = 76;
const NOENT = 44;
const WRITE = 'skillctl.policy.yaml';
// Kept in .skillctl/, which every run of the project holds: its policy lets skills write the rest.
const SORT = '.skillctl/sort.policy.yaml';
/** Schemas as loose as the modules' input and output (a JSON string in, an errno list or a number out). */
const ANY_IN = { properties: { path: {} } };
const OUT = { properties: { ok: {}, errno: {} } };
/** The repository's config as git init wrote it, and a `git status` that would run a planted fsmonitor. */
const config = (dir: string): Promise<string> => readFile(join(dir, '.git', 'config'), 'utf8');
function gitStatusRunsNothing(dir: string): void {
  execFileSync('git', ['status', '--short'], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' });
  assert.equal(existsSync(join(dir, 'PWNED')), false, 'git ran a planted program');
}

interface Denials {
  policy: { decision: string; denials?: { code: string }[] };
}
/** The codes of the refusals the last run's audit record holds. */
async function denials(sc: Scratch): Promise<string[]> {
  const lines = (await readFile(join(sc.root, 'audit.jsonl'), 'utf8')).trim().split('\n');
  return (JSON.parse(lines[lines.length - 1] as string) as Denials).policy.denials?.map((d) => d.code) ?? [];
}

/**
 * The WASI command (wasi-path-ops.wat) with these operations, granted the project. The operations
 * are its command's arguments, so the bundle is written again for each attack.
 */
async function wasiBundle(sc: Scratch, ops: string[]): Promise<string> {
  const perms = { 'fs.read': ['.'], 'fs.write': ['.'] };
  return writeBundle(join(sc.work, 'b', 'wasi'), { entrypoints: [entry({ runtime: 'wasm', command: ['skill.wasm', '_start', ...ops], input_schema: ANY_IN, output_schema: OUT, error_schema: {}, requested_permissions: perms })] });
}

describe('threat: protected paths moved or planted (git configuration renamed aside, a git link, a directory above the policy)', () => {
  const sc = scratch('skillctl-protect-');
  const linked = join(sc.root, 'linked');
  const bare = join(sc.root, 'bare');
  // A project whose own policy lets skills write nothing, run under a policy deep inside it that
  // grants the whole project: that run's skill is the only one that could move the policy.
  const deepProject = join(sc.root, 'deep-project');
  const deep = join(deepProject, 'deep', 'conf', 'ci.policy.yaml');
  const deepPolicy = `version: 1\npermissions:\n  fs.read: [${deepProject}]\n  fs.write: [${deepProject}]\n`;
  /** .git/config as git init wrote it. */
  let initialConfig = '';

  before(async () => {
    execFileSync('git', ['init', '-q', sc.work]);
    initialConfig = await config(sc.work);
    await mkdir(join(sc.work, 'sub'));
    await mkdir(join(sc.work, 'deep', 'conf'), { recursive: true });
    await writeFile(join(sc.work, 'ws.txt'), '../../evil\n');
    await writeFile(join(sc.work, WRITE), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
    await mkdir(join(sc.work, '.skillctl'));
    await writeFile(join(sc.work, SORT), `version: 1\npermissions:\n  fs.read: [${sc.work}]\n  fs.write: [${sc.work}]\n  exec: [sort]\n`);
    await mkdir(join(deepProject, '.git'), { recursive: true });
    await mkdir(dirname(deep), { recursive: true });
    await writeFile(join(deepProject, WRITE), 'version: 1\npermissions:\n  fs.read: [.]\n');
    await writeFile(deep, deepPolicy);
    const perms = { 'fs.read': ['.'], 'fs.write': ['.'] };
    await mkdir(join(sc.work, 'b', 'wasi'), { recursive: true });
    await writeFile(join(sc.work, 'b', 'wasi', 'skill.wasm'), await compileWat('wasi-path-ops'));
    await mkdir(join(sc.work, 'b', 'write'), { recursive: true });
    await writeFile(join(sc.work, 'b', 'write', 'skill.wasm'), await compileWat('write-file'));
    await writeBundle(join(sc.work, 'b', 'write'), { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: ANY_IN, output_schema: OUT, error_schema: {}, requested_permissions: perms })] });
    const tool = fsToolBundle();
    await writeBundle(join(sc.work, 'tool'), tool);
    // A linked work tree's top (its .git a file naming the git directory), and a project that is
    // not a repository yet (a root by its lock): each with its policy and the same process.
    for (const dir of [linked, bare]) {
      await mkdir(dir);
      await writeFile(join(dir, WRITE), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
      await writeBundle(join(dir, 'tool'), tool);
    }
    await writeFile(join(linked, '.git'), `gitdir: ${join(sc.work, '.git')}\n`);
    await writeLock(bare, []);
  });
  /**
   * A WASI command's attack: a refusal is an errno to the module and a denial in the record, never
   * an error of the run (no error, exit 0); `errno` is what each operation got, `denied` how many
   * distinct refusals the record keeps (POLICY_PATH_PROTECTED, each; the same refusal met again is
   * kept once, so that a module cannot flood its record), `then` what else must hold.
   */
  const wasi = (what: string, ops: string[], errno: number[], denied: number, then?: () => Promise<void>, at?: { readonly cwd: string; readonly policy: string }): Attack => ({
    what: `WASI: ${what}${denied > 0 ? ' (NOTCAPABLE to the module, POLICY_PATH_PROTECTED in the record)' : ''}`,
    code: null,
    exit: 0,
    attempt: async (s) => runTarget(await wasiBundle(s, ops), {}, { cwd: at?.cwd ?? s.work, audit: join(s.root, 'audit.jsonl'), ...(at !== undefined ? { policy: at.policy } : {}) }),
    check: async (r, s) => {
      assert.deepEqual((r.output as { errno: number[] }).errno, errno);
      assert.deepEqual(await denials(s), Array<string>(denied).fill('POLICY_PATH_PROTECTED'));
      assert.equal(await config(s.work), initialConfig);
      gitStatusRunsNothing(s.work);
      await then?.();
    },
  });
  const gone = (...paths: string[]) => async (): Promise<void> => {
    for (const p of paths) assert.equal(existsSync(join(sc.work, p)), false, p);
  };

  const write = (path: string) => (s: Scratch): Promise<Ran> => runTarget(join(s.work, 'b', 'write'), JSON.stringify(path), { cwd: s.work });
  const patch = (path: string, diff = `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+gitdir: ../evil\n`) => (s: Scratch): Promise<Ran> => runTarget('fs.write_patch', { unified_diff: diff }, { cwd: s.work, policy: WRITE });
  const absent = (...paths: string[]) => (_r: Ran, s: Scratch): void => {
    for (const p of paths) assert.equal(existsSync(join(s.work, p)), false, p);
    gitStatusRunsNothing(s.work);
  };
  /** The python process in bubblewrap, granted its project, doing `ops`. */
  const proc = (dir: string, list: string[][]): Promise<Ran> => runTarget(join(dir, 'tool'), { ops: list }, { cwd: dir, policy: WRITE, sandbox: 'bwrap' });
  const rows: Attack[] = [
    wasi('.git renamed aside, its config rewritten, renamed back (the review)', ['rename', '.git', 'g2', 'append', 'g2/config', 'rename', 'g2', '.git'], [NOTCAPABLE, NOENT, NOTCAPABLE], 1, gone('g2')),
    wasi(
      'a repository prepared under another name and renamed to .git, a git link file, a .git directory',
      ['mkdir', 'sub/g', 'append', 'sub/g/config', 'rename', 'sub/g', 'sub/.git', 'append', 'sub/.git', 'mkdir', 'sub/.git', 'unlink', 'sub/g/config', 'drop', 'sub/g'],
      [0, 0, NOTCAPABLE, NOTCAPABLE, NOTCAPABLE, 0, 0],
      1,
      gone('sub/.git', 'sub/g'),
    ),
    wasi('git pointed at another config: .git/commondir, .git/config.worktree, a submodule git directory', ['append', '.git/commondir', 'append', '.git/config.worktree', 'mkdir', '.git/modules'], [NOTCAPABLE, NOTCAPABLE, NOTCAPABLE], 3, gone('.git/commondir', '.git/config.worktree', '.git/modules')),
    wasi(
      'the directory above the policy in force renamed aside, the policy rewritten, renamed back',
      ['rename', 'deep', 'd2', 'append', 'd2/conf/ci.policy.yaml', 'rename', 'd2', 'deep'],
      [NOTCAPABLE, NOENT, NOTCAPABLE],
      1,
      async () => assert.equal(await readFile(deep, 'utf8'), deepPolicy),
      { cwd: deepProject, policy: deep },
    ),
    wasi('inside .git what git writes stays writable, and an ordinary directory is renamed and removed', ['append', '.git/info/exclude', 'mkdir', 'tmpdir', 'rename', 'tmpdir', 'tmpdir2', 'drop', 'tmpdir2'], [0, 0, 0, 0], 0, async () => {
      assert.match(await readFile(join(sc.work, '.git', 'info', 'exclude'), 'utf8'), /fsmonitor/);
    }),
    { what: 'provenact fs_write_file plants a git link (sub/.git naming a planted repository)', code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: write('sub/.git'), check: absent('sub/.git') },
    { what: 'provenact fs_write_file points .git at another git directory (.git/commondir)', code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: write('.git/commondir'), check: absent('.git/commondir') },
    { what: "provenact fs_write_file writes a submodule's config (.git/modules/s/config)", code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: write('.git/modules/s/config'), check: absent('.git/modules') },
    { what: 'provenact fs_write_file writes inside .git/objects (what git writes stays writable)', code: null, exit: 0, attempt: write('.git/objects/ab/cdef') },
    { what: 'fs.write_patch creates a git link file (sub/.git)', code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: patch('sub/.git'), check: absent('sub/.git') },
    { what: 'fs.write_patch creates .git/commondir', code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: patch('.git/commondir'), check: absent('.git/commondir') },
    { what: 'fs.write_patch creates .git/config.worktree', code: 'POLICY_PATH_PROTECTED', exit: 3, attempt: patch('.git/config.worktree'), check: absent('.git/config.worktree') },
    {
      what: "shell.exec_safe's command (sort -o, in bubblewrap) plants .git/commondir, which no mount can hold: removed, the run denied",
      code: 'POLICY_PATH_PROTECTED',
      exit: 3,
      attempt: (s) => runTarget('shell.exec_safe', { argv: ['sort', '-o', join(s.work, '.git', 'commondir'), 'ws.txt'] }, { cwd: s.work, policy: SORT, sandbox: 'bwrap' }),
      check: absent('.git/commondir'),
    },
    {
      what: 'a process in bubblewrap renames .git aside (EBUSY: a mount point)',
      code: null,
      exit: 0,
      attempt: (s) => proc(s.work, [['rename', join(s.work, '.git'), join(s.work, 'g3')]]),
      check: async (r, s) => {
        assert.deepEqual(r.output, { ok: 'EBUSY' });
        assert.equal(await config(s.work), initialConfig);
      },
    },
    {
      what: 'a process in bubblewrap at the top of a linked work tree runs, and can neither rewrite nor move its .git file',
      code: null,
      exit: 0,
      attempt: () => proc(linked, [['write', join(linked, '.git'), 'gitdir: ../evil\n'], ['rename', join(linked, '.git'), join(linked, 'gitlink')]]),
      check: async (r) => {
        const [written, renamed] = (r.output as { ok: string }).ok.split(',');
        assert.equal(written, 'EROFS');
        assert.ok(['EBUSY', 'EROFS'].includes(renamed as string), renamed);
        assert.equal(await readFile(join(linked, '.git'), 'utf8'), `gitdir: ${join(sc.work, '.git')}\n`);
      },
    },
    {
      what: 'a process in bubblewrap plants .git in a project that is not yet a repository: removed, the run denied',
      code: 'POLICY_PATH_PROTECTED',
      exit: 3,
      attempt: () => proc(bare, [['write', join(bare, '.git'), 'gitdir: ../evil\n']]),
      check: (r) => {
        assert.deepEqual([r.status, r.output], ['denied', null]);
        assert.equal(existsSync(join(bare, '.git')), false);
      },
    },
  ];
  attackRows(rows, sc);
});
