// Threat: filesystem (a built-in skill reaches a file outside its grant, or a file that is not one).
// The skill's input names a path outside the grant (absolute, `..`, a prefix look-alike, a symlink
// to a file or a directory outside), a FIFO, a device, a socket or a 2 GB sparse file where a file
// is expected, or a patch whose headers climb out of its base or land on a symlink. Each is
// refused with its code and exit status, or answered without reaching the outside, at once; the
// sentinel beside the scratch folder stays as it was; shell.exec_safe's command, in bubblewrap,
// does not see it. Swaps during a run: races.test.ts.
import assert from 'node:assert/strict';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { attackRows, runTarget, SECRET, type Attack, type Ran, type Scratch, scratch } from '../helpers/attack.js';
import { fifo, socketAt } from '../helpers/hostile.js';
import { hasRipgrep } from '../helpers/skill-responses.js';

let sock: Server | undefined;

/**
 * The policy files, by what they grant (relative to work/), in .skillctl/: every run of the
 * project holds it, and the others let skills write where a --policy file would be refused
 * (POLICY_FILE_WRITABLE). Their relative paths are read from work/.
 */
const READ = '.skillctl/read.policy.yaml';
const READ_RG = '.skillctl/read-rg.policy.yaml';
const WRITE = '.skillctl/write.policy.yaml';
/** Writes anywhere in the scratch folder, the sentinel included: only the patch's base stands between. */
const WIDE = '.skillctl/wide.policy.yaml';
const DEVICE = '.skillctl/device.policy.yaml';
const EXEC = '.skillctl/exec.policy.yaml';

const run = (skill: string, input: unknown, policy: string) => (sc: Scratch): Promise<Ran> => runTarget(skill, input, { cwd: sc.work, policy });
const outsideFile = (sc: Scratch): string => join(sc.outside, 'secret.txt');
/** A one-line patch of `path` (the sentinel's line), relative to base `data`. */
const patch = (path: string): string => `--- ${path}\n+++ ${path}\n@@ -1 +1 @@\n-${SECRET}\n+pwned\n`;
const writePatch = (diff: (sc: Scratch) => string, policy = WIDE) => (sc: Scratch): Promise<Ran> => runTarget('fs.write_patch', { base: 'data', unified_diff: diff(sc) }, { cwd: sc.work, policy });

/** The refusal's reason is audited: it names no path from the input. */
const namesNoPath = (r: Ran, sc: Scratch): void => {
  const reason = (JSON.parse(r.stdout) as { policy: { reason: string } }).policy.reason;
  assert.ok(!reason.includes('outside') && !reason.includes(sc.root), reason);
};
const rejectedAs = (reason: string) => (r: Ran): void => {
  const out = r.output as { applied: boolean; rejects: { reason: string }[] };
  assert.deepEqual([out.applied, out.rejects.map((x) => x.reason)], [false, [reason]]);
};

const reads: Attack[] = [
  { what: 'fs.read_text of an absolute path outside the grant', code: 'POLICY_PATH_DENIED', exit: 3, attempt: (sc) => run('fs.read_text', { path: outsideFile(sc) }, READ)(sc) },
  { what: 'fs.read_text through a symlink to a file outside', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_text', { path: 'data/link.txt' }, READ) },
  { what: 'fs.read_text through a symlink to a directory above', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_text', { path: 'data/up/outside/secret.txt' }, READ) },
  { what: 'fs.read_text of a prefix look-alike (data2 for data)', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_text', { path: 'data2/x.txt' }, READ) },
  { what: 'fs.read_text of /etc/passwd', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_text', { path: '/etc/passwd' }, READ) },
  { what: 'fs.read_text of data/../outside', code: 'POLICY_PATH_INVALID', exit: 3, attempt: run('fs.read_text', { path: 'data/../../outside/secret.txt' }, READ) },
  { what: 'fs.read_text of a path holding a control character', code: 'POLICY_PATH_INVALID', exit: 3, attempt: run('fs.read_text', { path: 'data/a\u0001b' }, READ) },
  { what: 'fs.read_text of a FIFO (opened without its driver: no block)', code: 'SKILL_NOT_A_FILE', exit: 1, attempt: run('fs.read_text', { path: 'data/fifo' }, READ) },
  { what: 'fs.read_text of a socket', code: 'SKILL_NOT_A_FILE', exit: 1, attempt: run('fs.read_text', { path: 'data/sock' }, READ) },
  { what: 'fs.read_text of /dev/zero, granted by name', code: 'SKILL_NOT_A_FILE', exit: 1, attempt: run('fs.read_text', { path: '/dev/zero' }, DEVICE) },
  { what: 'fs.read_text of a 2 GB sparse file (max_bytes read, no more)', code: 'SKILL_BINARY_CONTENT', exit: 1, attempt: run('fs.read_text', { path: 'data/sparse.txt' }, READ) },
  { what: 'fs.read_tree of a prefix look-alike', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_tree', { root: 'data2' }, READ) },
  { what: 'fs.read_tree of a symlink to a directory above', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_tree', { root: 'data/up' }, READ) },
  { what: 'fs.read_tree of /', code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('fs.read_tree', { root: '/' }, READ) },
  { what: 'fs.read_tree of data/..', code: 'POLICY_PATH_INVALID', exit: 3, attempt: run('fs.read_tree', { root: 'data/..' }, READ) },
  {
    what: 'fs.read_tree of a tree holding links out, a FIFO, a socket and a 2 GB file: links listed as links, never followed',
    code: null,
    exit: 0,
    attempt: run('fs.read_tree', { root: 'data', include_hidden: true }, READ),
    check: (r) => {
      const kinds = Object.fromEntries((r.output as { entries: { path: string; kind: string }[] }).entries.map((e) => [e.path, e.kind]));
      assert.deepEqual([kinds.link, kinds['link.txt'], kinds.up, kinds.fifo, kinds['sparse.txt']], ['symlink', 'symlink', 'symlink', 'other', 'file']);
      assert.ok(!Object.keys(kinds).some((p) => p.includes('secret')), JSON.stringify(kinds));
    },
  },
];

/** shell.exec_safe's command, run in bubblewrap: outside its grants, files do not exist for it. */
const commands: Attack[] = [
  {
    what: "shell.exec_safe's command reads the sentinel: no such file in its sandbox",
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('shell.exec_safe', { argv: ['cat', outsideFile(sc)], cwd: 'data' }, { cwd: sc.work, policy: EXEC }),
    check: (r) => {
      const out = r.output as { exit_code: number; stderr: string };
      assert.equal(out.exit_code, 1);
      assert.match(out.stderr, /No such file or directory/);
    },
  },
  {
    what: "shell.exec_safe's command lists the scratch folder: only the granted path is there",
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('shell.exec_safe', { argv: ['ls', sc.root], cwd: 'data' }, { cwd: sc.work, policy: EXEC }),
    check: (r) => assert.equal((r.output as { stdout: string }).stdout, 'work\n'),
  },
];

/** search.ripgrep both ways: with rg (when installed and granted) and with its in-process search. */
const searches: Attack[] = (hasRipgrep() ? [READ_RG, READ] : [READ]).flatMap((policy): Attack[] => {
  const how = policy === READ ? 'in-process search' : 'rg';
  return [
    { what: `search.ripgrep (${how}) of a prefix look-alike beside a granted path`, code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('search.ripgrep', { pattern: 'x', paths: ['data', 'data2'] }, policy) },
    { what: `search.ripgrep (${how}) of a symlink to a directory above`, code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('search.ripgrep', { pattern: 'x', paths: ['data/up'] }, policy) },
    { what: `search.ripgrep (${how}) of /etc`, code: 'POLICY_PATH_DENIED', exit: 3, attempt: run('search.ripgrep', { pattern: 'x', paths: ['/etc'] }, policy) },
    { what: `search.ripgrep (${how}) of data/..`, code: 'POLICY_PATH_INVALID', exit: 3, attempt: run('search.ripgrep', { pattern: 'x', paths: ['data/..'] }, policy) },
    {
      what: `search.ripgrep (${how}) over links out, a FIFO, a socket and a 2 GB file: nothing outside searched, no block`,
      code: null,
      exit: 0,
      attempt: run('search.ripgrep', { pattern: 'SENTINEL|inside', paths: ['data'] }, policy),
      check: (r) => assert.deepEqual((r.output as { matches: { file: string }[] }).matches.map((m) => m.file), ['data/notes.txt']),
    },
  ];
});

const writes: Attack[] = [
  { what: 'fs.write_patch with ../ headers', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => patch('../../outside/secret.txt')) },
  { what: 'fs.write_patch with a/../../ headers', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => patch('a/../../outside/secret.txt')) },
  { what: 'fs.write_patch with absolute headers', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch((sc) => patch(outsideFile(sc))) },
  { what: 'fs.write_patch through a symlinked directory', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => patch('link/secret.txt')) },
  { what: 'fs.write_patch of a symlinked target file', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => patch('link.txt')) },
  { what: 'fs.write_patch deleting a symlinked target file', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => `--- a/link.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-${SECRET}\n`) },
  {
    what: 'fs.write_patch renaming a symlinked target file',
    code: 'SKILL_PATH_OUTSIDE_BASE',
    exit: 3,
    check: namesNoPath,
    attempt: writePatch(() => 'diff --git a/link.txt b/moved.txt\nsimilarity index 100%\nrename from link.txt\nrename to moved.txt\n'),
  },
  {
    what: 'fs.write_patch renaming a file onto a symlinked target',
    code: 'SKILL_PATH_OUTSIDE_BASE',
    exit: 3,
    check: namesNoPath,
    attempt: writePatch(() => 'diff --git a/notes.txt b/link.txt\nsimilarity index 100%\nrename from notes.txt\nrename to link.txt\n'),
  },
  { what: 'fs.write_patch creating a file through a symlinked directory', code: 'SKILL_PATH_OUTSIDE_BASE', exit: 3, check: namesNoPath, attempt: writePatch(() => '--- /dev/null\n+++ b/link/new.txt\n@@ -0,0 +1 @@\n+planted\n') },
  {
    what: 'fs.write_patch creating a file through a symlinked directory, the write grant narrower',
    code: 'POLICY_PATH_DENIED',
    exit: 3,
    attempt: writePatch(() => '--- /dev/null\n+++ b/link/new.txt\n@@ -0,0 +1 @@\n+planted\n', WRITE),
  },
  { what: 'fs.write_patch of a FIFO: rejected unread, no block', code: null, exit: 0, attempt: writePatch(() => '--- a/fifo\n+++ b/fifo\n@@ -1 +1 @@\n-x\n+y\n', WRITE), check: rejectedAs('not_text') },
  { what: 'fs.write_patch of a 2 GB sparse file: rejected unread', code: null, exit: 0, attempt: writePatch(() => '--- a/sparse.txt\n+++ b/sparse.txt\n@@ -1 +1 @@\n-x\n+y\n', WRITE), check: rejectedAs('not_text') },
];

describe('filesystem: built-in skills reach no file outside the grant, and no file that is not one', () => {
  const s = scratch('skillctl-attack-fs-');
  before(async () => {
    const data = join(s.work, 'data');
    await mkdir(data);
    await mkdir(join(s.work, 'data2'));
    await writeFile(join(data, 'notes.txt'), 'inside\n');
    await writeFile(join(s.work, 'data2', 'x.txt'), 'x\n');
    await symlink(join(s.outside, 'secret.txt'), join(data, 'link.txt'));
    await symlink(s.outside, join(data, 'link'));
    await symlink(s.root, join(data, 'up'));
    fifo(join(data, 'fifo'));
    sock = await socketAt(join(data, 'sock'));
    // 2 GB that take no space: a hole after one line (truncate, never written).
    await writeFile(join(data, 'sparse.txt'), 'x\n');
    await truncate(join(data, 'sparse.txt'), 2 * 1024 ** 3);
    const policy = (perms: string): string => `version: 1\npermissions:\n${perms}`;
    await mkdir(join(s.work, '.skillctl'));
    await writeFile(join(s.work, READ), policy('  fs.read: [data]\n'));
    await writeFile(join(s.work, READ_RG), policy('  fs.read: [data]\n  exec: [rg]\n'));
    await writeFile(join(s.work, WRITE), policy('  fs.read: [data]\n  fs.write: [data]\n'));
    await writeFile(join(s.work, DEVICE), policy('  fs.read: [/dev/zero]\n'));
    await writeFile(join(s.work, EXEC), policy('  fs.read: [data]\n  exec: [cat, ls]\n'));
    await writeFile(join(s.work, WIDE), policy(`  fs.read: [${s.root}]\n  fs.write: [${s.root}]\n`));
  });
  after(() => sock?.close());

  attackRows([...reads, ...commands, ...searches, ...writes], s);
});
