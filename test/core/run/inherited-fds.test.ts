// Descriptors skillctl inherited without close-on-exec are closed before it starts a program
// (src/core/run/inherited-fds.ts): one a parent left open past node's own start-up sweep is closed,
// skillctl's own (O_CLOEXEC) and node's IPC channel are kept. The skill's side: test/security/inherited-fds.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { describe, it } from 'node:test';
import { leakedFds, toFdFlags } from '../../../src/core/run/inherited-fds.js';

const MODULE = new URL('../../../src/core/run/inherited-fds.js', import.meta.url).href;

/** What a node child at `fds` (stdio index: descriptor, 'ipc' or 'ignore') reports after closeInheritedFds. */
function child(fds: Record<number, number | 'ipc'>): Promise<{ closed: number[]; open: number[]; inheritable: number[]; own: boolean; again: number[] }> {
  const script = [
    `const { closeInheritedFds } = await import(${JSON.stringify(MODULE)});`,
    "const fs = await import('node:fs');",
    "const own = fs.openSync('/proc/self/status', 'r');",
    'const closed = [...closeInheritedFds()];',
    'const again = [...closeInheritedFds()];',
    "const open = fs.readdirSync('/proc/self/fd').map(Number).filter((fd) => fd > 2);",
    "const inheritable = open.filter((fd) => { try { return (parseInt(/^flags:\\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))[1], 8) & 0o2000000) === 0; } catch { return false; } });",
    "const ownOpen = (() => { try { fs.fstatSync(own); return true; } catch { return false; } })();",
    'const r = JSON.stringify({ closed, open, inheritable, own: ownOpen, again });',
    'if (process.send) process.send(r, () => process.disconnect()); else process.stdout.write(r);',
  ].join('\n');
  const top = Math.max(...Object.keys(fds).map(Number));
  const stdio = Array.from({ length: top + 1 }, (_, i) => (i === 1 ? 'pipe' : (fds[i] ?? 'ignore')));
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: stdio as ('pipe' | 'ignore' | 'ipc' | number)[] });
    let out = '';
    c.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    c.on('message', (m) => (out = String(m)));
    c.on('error', reject);
    c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as never) : reject(new Error(`child exited ${code}: ${out}`))));
  });
}

describe('inherited descriptors', () => {
  it('reads the flags of an fdinfo file, in octal', () => {
    assert.equal(toFdFlags('pos:\t0\nflags:\t02100000\nmnt_id:\t25\nino:\t1\n'), 0o2100000);
    assert.equal(toFdFlags('pos:\t0\nflags:\t0100002\n'), 0o100002);
    assert.equal(toFdFlags('pos:\t0\n'), undefined);
  });

  it('picks the descriptors above 2 without O_CLOEXEC, except those kept and those gone', () => {
    const fds = [0, 1, 2].map((fd) => ({ fd, flags: 0o2 })).concat([
      { fd: 3, flags: 0o2100000 },
      { fd: 4, flags: 0o100000 },
      { fd: 5, flags: 0o2 },
      { fd: 6, flags: undefined as unknown as number },
      { fd: 50, flags: 0o100000 },
    ]);
    assert.deepEqual(leakedFds(fds, new Set([5])), [4, 50]);
  });

  it('closes a directory descriptor inherited without close-on-exec, keeps its own and the IPC channel', async (t) => {
    if (process.platform !== 'linux') return t.skip('Linux only');
    const dir = openSync('/tmp', 'r');
    try {
      // 40 and 30: past node's start-up sweep (0-15 and on to the first gap), so inheritable as exec left them.
      const r = await child({ 30: 'ipc', 40: dir });
      // Whatever started this test may have leaked descriptors of its own: closed as well.
      assert.ok(r.closed.includes(40) && !r.closed.includes(30), `closed: ${r.closed.join(', ')}`);
      assert.ok(!r.open.includes(40), 'fd 40 is gone');
      assert.deepEqual(r.inheritable, [30], 'nothing but the channel would reach a program');
      assert.ok(r.open.includes(30), 'the IPC channel is kept');
      assert.ok(r.own, "the child's own descriptor (O_CLOEXEC) is kept");
      assert.deepEqual(r.again, r.closed, 'once per process: the second call answers the first');
    } finally {
      closeSync(dir);
    }
  });
});
