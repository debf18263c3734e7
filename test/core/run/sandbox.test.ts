import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerArgs, nodePermissionFlag } from '../../../src/core/run/index.js';

describe('containerArgs', () => {
  it('runs the pinned image without network, capabilities or a writable root; env by name only', () => {
    const a = containerArgs({
      engine: 'docker',
      name: 'skillctl-x',
      image: `img@sha256:${'a'.repeat(64)}`,
      bundleDir: '/b',
      workingDirectory: 'src',
      granted: { fsRead: ['/data'], fsWrite: ['/out'], netHttp: [], exec: [], env: ['HOME'] },
      memoryMiB: 256,
      argv: ['python', 'main.py'],
    });
    for (const flag of ['--read-only', '--rm', '-i']) assert.ok(a.includes(flag), flag);
    assert.deepEqual(a.slice(a.indexOf('--network'), a.indexOf('--network') + 2), ['--network', 'none']);
    // max_memory holds swap too, as a run's cgroup does (memory.swap.max 0): docker's default swap is the memory again.
    assert.deepEqual([a[a.indexOf('--memory') + 1], a[a.indexOf('--memory-swap') + 1]], ['256m', '256m']);
    assert.ok(a.join(' ').includes('-v /b:/skill:ro -w /skill/src'));
    assert.ok(a.join(' ').includes('-v /data:/data:ro') && a.join(' ').includes('-v /out:/out:rw'));
    assert.ok(a.join(' ').includes('-e HOME') && !a.join(' ').includes('HOME='));
    assert.deepEqual(a.slice(-4), ['--', `img@sha256:${'a'.repeat(64)}`, 'python', 'main.py']);
  });

  it('mounts protected paths read-only and pins the directories above them, as bubblewrap does; a .git file read-only', () => {
    const spec = { engine: 'docker', name: 'n', image: 'i', bundleDir: '/b', workingDirectory: '.', granted: { fsRead: [], fsWrite: ['/w'], netHttp: [], exec: [], env: [] }, memoryMiB: 256, argv: ['x'] };
    const a = containerArgs({ ...spec, protect: ['/w/.git/config', '/w/conf/ci.policy.yaml', '/elsewhere/p.yaml'] }).join(' ');
    for (const m of ['-v /w/.git:/w/.git:rw', '-v /w/.git/config:/w/.git/config:ro', '-v /w/conf:/w/conf:rw', '-v /w/conf/ci.policy.yaml:/w/conf/ci.policy.yaml:ro']) assert.ok(a.includes(m), m);
    assert.ok(!a.includes('/elsewhere'), a);
    const linked = containerArgs({ ...spec, protect: ['/w/pins'], notDirs: ['/w/.git'] }).join(' ');
    assert.ok(linked.includes('-v /w/.git:/w/.git:ro') && linked.includes('-v /w/pins:/w/pins:ro'), linked);
  });

  it('mounts a write grant inside a protected path read-only, and a grant inside .skillctl/keys not at all', () => {
    const granted = { fsRead: ['/w/.skillctl/keys/alice.key'], fsWrite: ['/w/.claude/commands', '/w/sub/.git/hooks', '/w/out'], netHttp: [], exec: [], env: [] };
    const a = containerArgs({ engine: 'docker', name: 'n', image: 'i', bundleDir: '/b', workingDirectory: '.', granted, memoryMiB: 256, argv: ['x'] }).join(' ');
    for (const m of ['-v /w/.claude/commands:/w/.claude/commands:ro', '-v /w/sub/.git/hooks:/w/sub/.git/hooks:ro', '-v /w/out:/w/out:rw']) assert.ok(a.includes(m), m);
    assert.ok(!a.includes('/w/.claude/commands:rw') && !a.includes('/w/sub/.git/hooks:rw'), a);
    assert.ok(!a.includes('alice.key'), a);
  });
});

describe('nodePermissionFlag', () => {
  it('names the flag of each Node line', () => {
    assert.equal(nodePermissionFlag('18.20.0'), undefined);
    assert.equal(nodePermissionFlag('20.19.0'), '--experimental-permission');
    assert.equal(nodePermissionFlag('22.12.0'), '--experimental-permission');
    assert.equal(nodePermissionFlag('22.13.0'), '--permission');
    assert.equal(nodePermissionFlag('24.1.0'), '--permission');
  });
});
