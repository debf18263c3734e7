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
