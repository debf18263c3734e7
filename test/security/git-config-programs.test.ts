// Threat: a program the repository's git configuration names inside the work tree (a hooks folder other than git's own, a filter script, an included configuration file), planted by a skill for the user's next commit or checkout to run.
// The project is a git repository whose configuration points into the work tree, as many do:
// `core.hooksPath = tools/hooks` (a project's shared hooks), a clean filter run as
// `./scripts/clean.sh`, and `include.path` of a configuration file kept in the project. Each is
// as good as .git/hooks for an attacker: the user's git runs it, outside every sandbox. Each
// runtime with a grant to write the whole project tries to plant or replace one, and is refused
// with its code; the files stay as they were.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { fsToolBundle } from '../helpers/fs-tool.js';
import { compileWat } from '../helpers/wat.js';

const WRITE = 'skillctl.policy.yaml';
const ANY_IN = { properties: { path: {} } };
const OUT = { properties: { ok: {} } };
const CLEAN = '#!/bin/sh\ncat\n';
const INCLUDED = '[user]\n\tname = Someone\n';

describe("threat: what the repository's git configuration names in the work tree, planted by a skill", () => {
  const sc = scratch('skillctl-gitprog-');

  before(async () => {
    const git = (...args: string[]): void => void execFileSync('git', ['-C', sc.work, ...args], { stdio: 'ignore' });
    git('init', '-q');
    git('config', 'core.hooksPath', 'tools/hooks');
    git('config', 'filter.tidy.clean', './scripts/clean.sh --strict');
    git('config', 'include.path', '../project.gitconfig');
    await mkdir(join(sc.work, 'scripts'));
    await writeFile(join(sc.work, 'scripts', 'clean.sh'), CLEAN, { mode: 0o755 });
    await writeFile(join(sc.work, 'project.gitconfig'), INCLUDED);
    await writeFile(join(sc.work, WRITE), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
    await mkdir(join(sc.work, 'b', 'write'), { recursive: true });
    await writeFile(join(sc.work, 'b', 'write', 'skill.wasm'), await compileWat('write-file'));
    const perms = { 'fs.read': ['.'], 'fs.write': ['.'] };
    await writeBundle(join(sc.work, 'b', 'write'), { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: ANY_IN, output_schema: OUT, error_schema: {}, requested_permissions: perms })] });
    await writeBundle(join(sc.work, 'tool'), fsToolBundle());
  });

  const untouched = async (_r: Ran, s: Scratch): Promise<void> => {
    assert.equal(await readFile(join(s.work, 'scripts', 'clean.sh'), 'utf8'), CLEAN);
    assert.equal(await readFile(join(s.work, 'project.gitconfig'), 'utf8'), INCLUDED);
    assert.equal(existsSync(join(s.work, 'tools', 'hooks', 'pre-commit')), false, 'a hook was planted');
  };
  const write = (path: string) => (s: Scratch): Promise<Ran> => runTarget(join(s.work, 'b', 'write'), JSON.stringify(path), { cwd: s.work });
  const patch = (diff: string) => (s: Scratch): Promise<Ran> => runTarget('fs.write_patch', { unified_diff: diff }, { cwd: s.work, policy: WRITE });
  const proc = (ops: string[][]) => (s: Scratch): Promise<Ran> =>
    runTarget(join(s.work, 'tool'), { ops: ops.map(([op, path, ...rest]) => [op, join(s.work, path as string), ...rest]) }, { cwd: s.work, policy: WRITE, sandbox: 'bwrap' });
  const refused = (what: string, attempt: (s: Scratch) => Promise<Ran>): Attack => ({ what, code: 'POLICY_PATH_PROTECTED', exit: 3, attempt, check: untouched });

  const rows: Attack[] = [
    refused('fs.write_patch creates a pre-commit hook in the folder core.hooksPath names', patch('--- /dev/null\n+++ b/tools/hooks/pre-commit\n@@ -0,0 +1 @@\n+touch PWNED\n')),
    refused('fs.write_patch rewrites the clean filter git runs on the next add', patch('--- a/scripts/clean.sh\n+++ b/scripts/clean.sh\n@@ -2 +2 @@\n-cat\n+touch PWNED; cat\n')),
    refused('provenact fs_write_file replaces the configuration file .git/config includes', write('project.gitconfig')),
    refused('provenact fs_write_file writes the filter script', write('scripts/clean.sh')),
    {
      what: 'a process in bubblewrap rewrites the filter script and the included configuration (read-only mounts)',
      code: null,
      exit: 0,
      attempt: proc([
        ['write', 'scripts/clean.sh', 'touch PWNED'],
        ['write', 'project.gitconfig', '[core]\n\tfsmonitor = ./x\n'],
      ]),
      check: async (r, s) => {
        assert.deepEqual(r.output, { ok: 'EROFS,EROFS' });
        await untouched(r, s);
      },
    },
    {
      what: 'a process in bubblewrap creates the hooks folder and a pre-commit hook in it: removed, the run denied',
      code: 'POLICY_PATH_PROTECTED',
      exit: 3,
      attempt: proc([['mkdir', 'tools'], ['mkdir', 'tools/hooks'], ['write', 'tools/hooks/pre-commit', 'touch PWNED']]),
      check: async (r, s) => {
        assert.deepEqual([r.status, r.output], ['denied', null]);
        await untouched(r, s);
      },
    },
  ];
  attackRows(rows, sc);
});
