import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { lookupCommand } from '../../../src/core/fs/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('lookupCommand', () => {
  const tmp = tempDir('skillctl-find-command-');
  let root: string;
  let kept: string;
  let tools: string;
  before(async () => {
    root = realpathSync(tmp);
    kept = join(root, 'kept');
    tools = join(root, 'tools');
    await mkdir(kept);
    await mkdir(tools);
    for (const [dir, name] of [[tools, 'python3'], [kept, 'busybox'], [kept, 'git']] as const) {
      await writeFile(join(dir, name), '#!/bin/sh\n');
      await chmod(join(dir, name), 0o755);
    }
    await symlink(join(tools, 'python3'), join(kept, 'python3'));
    await symlink(join(kept, 'busybox'), join(kept, 'ls'));
    await symlink(join(kept, 'busybox'), join(kept, 'rm'));
  });

  it('names links by their own path, not their target: busybox `ls` and `rm` stay distinct', async () => {
    assert.deepEqual(await lookupCommand('ls', kept, { writable: [tools] }), { ok: true, path: join(kept, 'ls') });
    assert.deepEqual(await lookupCommand('rm', kept, { writable: [tools] }), { ok: true, path: join(kept, 'rm') });
  });

  it('refuses a name whose link on PATH leads into a write root, instead of passing over it', async () => {
    const r = await lookupCommand('python3', `${kept}:/usr/bin`, { writable: [tools] });
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.writable, { path: join(kept, 'python3'), real: join(tools, 'python3'), root: tools });
  });

  it('refuses an absolute path inside a write root, and one whose link leads there', async () => {
    const direct = await lookupCommand(join(tools, 'python3'), '', { writable: [tools] });
    assert.equal(!direct.ok && direct.writable?.root, tools);
    const linked = await lookupCommand(join(kept, 'python3'), '', { writable: [tools] });
    assert.equal(!linked.ok && linked.writable?.real, join(tools, 'python3'));
  });

  it('refuses a program outside every write root whose way there passes through a link inside one', async () => {
    // chain/git -> tools/git-link -> kept/git: a skill that may write tools/ points git-link elsewhere.
    const chain = join(root, 'chain');
    await mkdir(chain, { recursive: true });
    await symlink(join(kept, 'git'), join(tools, 'git-link'));
    await symlink(join(tools, 'git-link'), join(chain, 'git'));
    const r = await lookupCommand('git', `${chain}:${kept}`, { writable: [tools] });
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.writable, { path: join(chain, 'git'), real: join(kept, 'git'), root: tools });
    assert.match(!r.ok ? r.reason : '', /through .*git-link, inside the fs.write path/);
    // A directory link inside the write root on the way, and a `..` climbing out of a directory there.
    await symlink(kept, join(tools, 'dir-link'));
    await symlink(join(tools, 'dir-link', 'git'), join(chain, 'git2'));
    await mkdir(join(tools, 'sub'));
    await symlink(`${tools}/sub/../../kept/git`, join(chain, 'git3'));
    for (const name of ['git2', 'git3']) {
      const x = await lookupCommand(name, chain, { writable: [tools] });
      assert.equal(!x.ok && x.writable?.root, tools, name);
    }
    // The same chains, with no write root on their way: found, by their own path.
    assert.deepEqual(await lookupCommand('git', chain, { writable: [join(root, 'elsewhere')] }), { ok: true, path: join(chain, 'git') });
  });

  it('finds a program outside every write root, and everything without write roots (the default)', async () => {
    assert.deepEqual(await lookupCommand('git', kept, { writable: [tools] }), { ok: true, path: join(kept, 'git') });
    assert.deepEqual(await lookupCommand('python3', kept), { ok: true, path: join(kept, 'python3') });
  });

  it('compares on path-segment boundaries: a root `tool` does not hold `tools/`', async () => {
    assert.deepEqual(await lookupCommand('python3', kept, { writable: [join(root, 'tool')] }), { ok: true, path: join(kept, 'python3') });
  });

  it('reports a missing program as missing, not as writable', async () => {
    const r = await lookupCommand('nope', kept, { writable: [tools] });
    assert.deepEqual(r, { ok: false, reason: 'is not found on PATH' });
  });
});
