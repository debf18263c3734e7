// The checked file layer's renames, removals and creations against protected paths: an entry
// named .git is neither moved, planted, removed nor replaced, a directory above a path the run
// protects by its full path is neither renamed nor removed nor brought in by a rename, and what
// git itself writes inside .git, and ordinary renames, still work. Each refusal is
// POLICY_PATH_PROTECTED, recorded by the gate, and leaves the tree exactly as it was.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkedFs, createPolicyGate, isFailure, runProtectedPaths, type CheckedDir, type FsFailure, type RecordingGate } from '../../../src/core/policy/index.js';
import { treeState } from '../../helpers/attack.js';
import { tempDir } from '../../helpers/tmp.js';

function code(f: FsFailure | CheckedDir | string | undefined): string {
  if (f === undefined || typeof f === 'string' || !isFailure(f)) return 'done';
  return f.kind === 'denied' ? f.decision.code : f.kind;
}

describe('checked file layer: protected entries and the directories above protected paths', () => {
  const tmp = tempDir('skillctl-checked-protect-');
  let proj: string;
  let gate: RecordingGate;
  /** Every directory opened, closed at the end: left to the collector, each warned DEP0137. */
  const opened: CheckedDir[] = [];
  after(async () => {
    for (const d of opened) await d.close();
  });

  /** `proj` opened to write, with the run's protected paths of a project whose skillctl is vendored in `vendor/`. */
  async function open(dir = proj, install = join(proj, 'vendor', 'skillctl')): Promise<CheckedDir> {
    const protectedPaths = runProtectedPaths({ cwd: proj, root: proj, install, policyFile: join(proj, 'deep', 'conf', 'ci.policy.yaml') });
    gate = createPolicyGate({ fsRead: [proj], fsWrite: [proj], netHttp: [], exec: [], env: [] }, { cwd: proj, pathEnv: '', protectedPaths });
    const d = await checkedFs(gate, proj).openDir(dir, 'fs.write');
    assert.ok(!isFailure(d), JSON.stringify(d));
    opened.push(d);
    return d;
  }

  /** Every refusal: the code, a recorded POLICY_PATH_PROTECTED, and nothing changed on disk. */
  async function refused(acts: (() => Promise<FsFailure | CheckedDir | string | undefined>)[]): Promise<void> {
    const before = await treeState(proj);
    for (const act of acts) assert.equal(code(await act()), 'POLICY_PATH_PROTECTED', act.toString());
    assert.equal(gate.uses.filter((u) => !u.allowed && u.code === 'POLICY_PATH_PROTECTED').length, acts.length);
    assert.deepEqual(await treeState(proj), before, 'nothing on disk changed');
  }

  before(async () => {
    proj = realpathSync(tmp);
    for (const dir of ['.git/objects/ab', '.git/refs/heads', 'g2', 'sub', 'linked', 'src', 'vendor/skillctl/dist', 'deep/conf', 'staged/skillctl/dist']) await mkdir(join(proj, dir), { recursive: true });
    await writeFile(join(proj, '.git', 'config'), '[core]\n\tbare = false\n');
    await writeFile(join(proj, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(proj, 'g2', 'config'), '[core]\n\tfsmonitor = "touch PWNED; false"\n');
    await writeFile(join(proj, 'linked', '.git'), 'gitdir: ../elsewhere\n');
    await writeFile(join(proj, 'vendor', 'skillctl', 'dist', 'cli.js'), 'export {};\n');
    await writeFile(join(proj, 'deep', 'conf', 'ci.policy.yaml'), 'version: 1\n');
    await writeFile(join(proj, 'staged', 'skillctl', 'dist', 'cli.js'), 'planted();\n');
  });

  it('.git is neither renamed aside nor brought back from another name (the reviewer: rename, rewrite g2/config, rename back)', async () => {
    const d = await open();
    await refused([() => d.rename('.git', 'g2'), () => d.rename('g2', '.git'), () => d.removeDir('.git')]);
  });

  it('a git link or a repository is not planted: no .git file or directory is created, in any directory, in any case', async () => {
    const sub = await open(join(proj, 'sub'));
    await refused([() => sub.makeDir('.git'), () => sub.writeTemp('.git', Buffer.from('gitdir: ../g2\n'), 0o644), () => sub.makeDir('.GIT'), () => sub.rename('x', '.git')]);
  });

  it('an existing .git file (a linked work tree, a submodule) is neither removed nor replaced nor moved', async () => {
    const linked = await open(join(proj, 'linked'));
    await refused([() => linked.remove('.git'), () => linked.writeTemp('.git', Buffer.from('gitdir: ../../g2\n'), 0o644), () => linked.rename('.git', 'gitlink')]);
  });

  it('what leads git to another config is not written inside .git: commondir, config.worktree, a submodule or linked work tree git directory', async () => {
    const git = await open(join(proj, '.git'));
    await refused([() => git.writeTemp('commondir', Buffer.from('../g2\n'), 0o644), () => git.writeTemp('config.worktree', Buffer.from('[core]\n'), 0o644), () => git.makeDir('modules'), () => git.makeDir('worktrees'), () => git.rename('HEAD', 'config')]);
  });

  it('a directory above a path the run protects is neither renamed nor removed (a vendored skillctl, the policy directory)', async () => {
    const d = await open();
    await refused([() => d.rename('vendor', 'v2'), () => d.rename('deep', 'd2'), () => d.removeDir('vendor')]);
  });

  it('nor is a prepared directory renamed into the place of one that does not exist yet', async () => {
    // skillctl to be installed at later/skillctl: `later` does not exist; `staged` holds a planted build.
    const d = await open(proj, join(proj, 'later', 'skillctl'));
    await refused([() => d.rename('staged', 'later')]);
  });

  it('inside .git, what git writes stays writable: an object, HEAD replaced by rename, a ref', async () => {
    const git = await open(join(proj, '.git'));
    const objects = await git.dir('objects');
    assert.ok(!isFailure(objects), JSON.stringify(objects));
    const ab = await objects.dir('ab');
    assert.ok(!isFailure(ab), JSON.stringify(ab));
    const tmp = await ab.writeTemp('cdef0123', Buffer.from('blob'), 0o444);
    assert.equal(typeof tmp, 'string', JSON.stringify(tmp));
    assert.equal(code(await ab.rename(tmp as string, 'cdef0123')), 'done');
    const head = await git.writeTemp('HEAD', Buffer.from('ref: refs/heads/next\n'), 0o644);
    assert.equal(code(await git.rename(head as string, 'HEAD')), 'done');
    assert.equal(code(await git.makeDir('rebase-merge')), 'done');
    assert.equal(code(await git.removeDir('rebase-merge')), 'done');
    assert.equal(await readFile(join(proj, '.git', 'objects', 'ab', 'cdef0123'), 'utf8'), 'blob');
    assert.equal(await readFile(join(proj, '.git', 'HEAD'), 'utf8'), 'ref: refs/heads/next\n');
    assert.ok(gate.uses.every((u) => u.allowed));
  });

  it('an ordinary directory is renamed and removed as before', async () => {
    const d = await open();
    assert.equal(code(await d.rename('src', 'src2')), 'done');
    assert.equal(code(await d.rename('src2', 'src')), 'done');
    assert.equal(code(await d.makeDir('scratch')), 'done');
    assert.equal(code(await d.removeDir('scratch')), 'done');
    assert.ok(gate.uses.every((u) => u.allowed));
  });
});
