import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bwrapArgs, notDirsOnTheWay } from '../../../src/core/run/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { egressCaIn, egressSocketIn } from '../../../src/core/run/bwrap-args.js';

describe('bwrapArgs', () => {
  const base = {
    system: [{ path: '/usr' }, { path: '/bin', symlink: 'usr/bin' }],
    bundle: '/b/skill',
    cwd: '/b/skill/src',
    runtimeDirs: ['/opt/node'],
    read: ['/', '/work/project', '/work/project/out/cache'],
    write: ['/work/project/out'],
    network: false,
    protect: ['/work/project/out/audit.jsonl', '/elsewhere/policy.yaml'],
  };
  it('sizes the private /tmp and /dev/shm to the run\'s memory between them, and makes /dev read-only after its mounts', () => {
    const a = bwrapArgs({ ...base, tmpfsBytes: 64 << 20 });
    const at = (...xs: string[]): number => a.findIndex((_, i) => xs.every((x, j) => a[i + j] === x));
    assert.ok(at('--size', String(48 << 20), '--tmpfs', '/tmp') >= 0);
    assert.ok(at('--size', String(16 << 20), '--tmpfs', '/dev/shm') > at('--dev', '/dev'));
    assert.ok(at('--remount-ro', '/dev') > at('--tmpfs', '/dev/shm'));
    // Without a size (a bubblewrap without --size), unbounded as before.
    assert.equal(bwrapArgs(base).indexOf('--size'), -1);
  });

  it('never lets /tmp and /dev/shm together hold more than the budget: whole 64 KiB grains (a tmpfs rounds up to its page), neither unbounded', () => {
    const sizeOf = (a: readonly string[], path: string): number => Number(a[a.findIndex((x, i) => x === '--tmpfs' && a[i + 1] === path) - 1]);
    for (const budget of [512 << 20, 64 << 20, 100_000_000, 1_000_001, 200_000, 131_072, 131_071, 4096, 1]) {
      const a = bwrapArgs({ ...base, tmpfsBytes: budget });
      const [tmp, shm] = [sizeOf(a, '/tmp'), sizeOf(a, '/dev/shm')];
      assert.ok(tmp > 0 && shm > 0 && tmp % 65_536 === 0 && shm % 65_536 === 0, `${budget}: ${tmp} + ${shm}`);
      // Below two grains each still holds one: no program starts under such a cap anyway.
      assert.ok(tmp + shm <= Math.max(budget, 131_072), `${budget}: ${tmp} + ${shm}`);
      assert.ok(shm <= tmp, `${budget}: ${tmp} + ${shm}`);
    }
  });

  it("makes the sandbox's own root read-only once every mount point in it is made; a root granted whole stays the grant's", () => {
    const a = bwrapArgs({ ...base, read: ['/work/project'], egress: { readsHttps: true, socket: '/tmp/skillctl-egress-x/proxy.sock' } });
    assert.deepEqual(a.slice(-12), ['--ro-bind-fd', '3', '/skillctl-egress.sock', '--ro-bind-data', '4', '/skillctl-egress-ca.pem', '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', '/skill/src']);
    assert.ok(a.indexOf('/skill') < a.indexOf('--remount-ro'), 'after the bundle too');
    // `/` bound whole (no list of the host's entries): the host's root, writable where the grant says so.
    assert.ok(!bwrapArgs({ ...base, read: [], write: ['/'] }).join(' ').includes('--remount-ro / '));
  });

  it('covers a secret folder with an empty tmpfs made read-only once the files covered inside it are', () => {
    const keys = '/work/project/out/.skillctl/keys';
    const a = bwrapArgs({ ...base, hide: [keys, keys], hideFiles: [`${keys}/token`] });
    const at = (...xs: string[]): number => a.findIndex((_, i) => xs.every((x, j) => a[i + j] === x));
    assert.ok(at('--tmpfs', keys) >= 0 && at('--tmpfs', keys) < at('--ro-bind', '/dev/null', `${keys}/token`));
    assert.ok(at('--remount-ro', keys) > at('--ro-bind', '/dev/null', `${keys}/token`));
    assert.equal(a.filter((x) => x === keys).length, 2, 'one tmpfs, one remount');
  });

  it('isolates everything, mounts shallow before deep, and the bundle read-only last', () => {
    const a = bwrapArgs(base);
    assert.deepEqual(a.slice(0, 5), ['--die-with-parent', '--new-session', '--unshare-all', '--cap-drop', 'ALL']);
    assert.ok(!a.includes('--share-net'));
    const at = (kind: string, path: string): number => a.findIndex((x, i) => x === kind && a[i + 1] === path);
    assert.ok(at('--ro-bind-try', '/') < at('--ro-bind', '/usr'), 'a granted / goes below the system mounts');
    assert.ok(at('--ro-bind', '/usr') < at('--ro-bind-try', '/work/project'));
    assert.ok(at('--ro-bind-try', '/work/project') < at('--bind-try', '/work/project/out'));
    assert.equal(at('--ro-bind-try', '/work/project/out/cache'), -1, 'a read grant inside a write grant stays writable');
    assert.ok(at('--bind-try', '/work/project/out') < at('--ro-bind-try', '/work/project/out/audit.jsonl'), 'protected files stay read-only');
    assert.equal(at('--ro-bind-try', '/elsewhere/policy.yaml'), -1, 'a protected path outside every write grant needs no mount');
    // Under the granted `/` the host's own /bin link shows: bubblewrap could not make one there.
    assert.equal(at('--symlink', 'usr/bin'), -1);
    const noRoot = bwrapArgs({ ...base, read: base.read.filter((r) => r !== '/') });
    assert.ok(noRoot.findIndex((x, i) => x === '--symlink' && noRoot[i + 1] === 'usr/bin') >= 0);
    assert.ok(at('--tmpfs', '/tmp') >= 0 && at('--proc', '/proc') >= 0 && at('--dev', '/dev') >= 0);
    // The bundle appears at /skill wherever it is on the host: the working directory is the same on every run.
    assert.deepEqual(a.slice(-7), ['--ro-bind', '/b/skill', '/skill', '--remount-ro', '/dev', '--chdir', '/skill/src']);
    assert.equal(at('--ro-bind-try', '/etc/localtime'), -1, "the host's time zone is never mounted");
  });

  it("a grant of / is shown entry by entry, so that the root stays the sandbox's own (the bundle's and the egress socket's mount points)", () => {
    const rootEntries = [{ path: '/etc' }, { path: '/home' }, { path: '/bin', symlink: 'usr/bin' }, { path: '/proc' }, { path: '/tmp' }, { path: '/usr' }, { path: '/skill' }, { path: '/.dockerenv' }];
    const a = bwrapArgs({ ...base, rootEntries, timezone: 'Asia/Tokyo' });
    const pairs = a.map((x, i) => `${x} ${a[i + 1] ?? ''}`);
    assert.ok(!pairs.includes('--ro-bind-try /'), 'the host root is not bound over the sandbox root');
    for (const p of ['/etc', '/home', '/.dockerenv']) assert.ok(pairs.includes(`--ro-bind-try ${p}`), p);
    // What the sandbox makes itself is not taken from the host, and /bin is the system's link, once.
    for (const p of ['/proc', '/tmp', '/skill']) assert.ok(!pairs.includes(`--ro-bind-try ${p}`), p);
    assert.equal(pairs.filter((x) => x === '--symlink usr/bin').length, 1);
    // The host's /etc is shown: its own localtime, where no link can be made.
    assert.ok(!a.join(' ').includes('/usr/share/zoneinfo/Asia/Tokyo'));
    assert.deepEqual(a.slice(-9), ['--ro-bind', '/b/skill', '/skill', '--remount-ro', '/dev', '--remount-ro', '/', '--chdir', '/skill/src']);
  });

  it("shows the run's declared time zone at /etc/localtime, and nothing for a name that could leave zoneinfo", () => {
    const a = bwrapArgs({ ...base, read: ['/work/project'], timezone: 'Asia/Tokyo' });
    assert.ok(a.join(' ').includes('--symlink /usr/share/zoneinfo/Asia/Tokyo /etc/localtime'), a.join(' '));
    // A grant of /etc (or /) shows the host's own file there, where no link can be made.
    assert.ok(!bwrapArgs({ ...base, read: ['/etc'], timezone: 'Asia/Tokyo' }).includes('/etc/localtime'));
    for (const tz of ['../../etc/shadow', 'Asia/../../x', '/etc/passwd', 'UTC\n']) assert.ok(!bwrapArgs({ ...base, timezone: tz }).includes('/etc/localtime'), tz);
  });

  it('keeps a working directory outside the bundle as it is', () => {
    assert.deepEqual(bwrapArgs({ ...base, cwd: '/work/project' }).slice(-2), ['--chdir', '/work/project']);
    assert.deepEqual(bwrapArgs({ ...base, cwd: '/b/skill-other' }).slice(-2), ['--chdir', '/b/skill-other']);
  });
  it('pins each directory between a write grant and a protected path, so none can be renamed and refilled', () => {
    const a = bwrapArgs({ ...base, write: ['/w'], read: [], protect: ['/w/conf/ci/policy.yaml', '/w/locked'] });
    const mounts = a.join(' ');
    assert.ok(mounts.includes('--bind-try /w/conf /w/conf') && mounts.includes('--bind-try /w/conf/ci /w/conf/ci'), mounts);
    assert.ok(mounts.includes('--ro-bind-try /w/conf/ci/policy.yaml /w/conf/ci/policy.yaml'), mounts);
    // A protected directory is mounted read-only, not pinned writable on top.
    const again = bwrapArgs({ ...base, write: ['/w'], read: [], protect: ['/w/conf', '/w/conf/policy.yaml'] }).join(' ');
    assert.ok(!again.includes('--bind-try /w/conf /w/conf') && again.includes('--ro-bind-try /w/conf /w/conf'), again);
    // The write grant itself is a mount already: it is not pinned again.
    assert.equal(mounts.split('--bind-try /w /w').length, 2, mounts);
  });

  it("mounts a .git file on the way to a protected path read-only in its place (a linked work tree), and nothing below it", () => {
    const protect = ['/w/.git/hooks', '/w/.git/config', '/w/pins'];
    const a = bwrapArgs({ ...base, write: ['/w'], read: [], protect, notDirs: ['/w/.git'] }).join(' ');
    assert.ok(a.includes('--ro-bind-try /w/.git /w/.git'), a);
    assert.ok(!a.includes('--bind-try /w/.git /w/.git') && !a.includes('/w/.git/'), 'bubblewrap refuses a mount through a file');
    assert.ok(a.includes('--ro-bind-try /w/pins /w/pins'), a);
    // A .git directory is pinned writable, with its hooks and config read-only on top.
    const dir = bwrapArgs({ ...base, write: ['/w'], read: [], protect }).join(' ');
    assert.ok(dir.includes('--bind-try /w/.git /w/.git') && dir.includes('--ro-bind-try /w/.git/config /w/.git/config'), dir);
  });

  it("shows the egress socket in a directory bubblewrap makes afresh, never under a host directory a grant shows", () => {
    assert.equal(egressSocketIn({ read: ['/work', '/run'], write: ['/tmp/out'] }), '/skillctl-egress.sock');
    assert.equal(egressSocketIn({ read: ['/'], write: [] }), '/tmp/skillctl-egress.sock');
    assert.equal(egressSocketIn({ read: ['/'], write: ['/tmp'] }), '/dev/skillctl-egress.sock');
  });

  it('notDirsOnTheWay names the files between a write grant and a protected path, and only those', async () => {
    const w = realpathSync(tempDir('skillctl-notdirs-'));
    await mkdir(join(w, 'repo', '.git'), { recursive: true });
    await mkdir(join(w, 'linked'));
    await writeFile(join(w, 'linked', '.git'), 'gitdir: ../elsewhere\n');
    const protect = [join(w, 'repo', '.git', 'config'), join(w, 'linked', '.git', 'config'), join(w, 'absent', '.git', 'config'), '/elsewhere/x/y'];
    assert.deepEqual(await notDirsOnTheWay(protect, [w]), [join(w, 'linked', '.git')]);
  });

  it("never shares the network: net.http shows the egress proxy's socket instead, by its pinned descriptor, and the bridge starts without NODE_OPTIONS", () => {
    const a = bwrapArgs({ ...base, egress: { readsHttps: false, socket: '/tmp/skillctl-egress-x/proxy.sock' } });
    assert.ok(!a.includes('--share-net'));
    const i = a.indexOf('--ro-bind-fd');
    // base grants /: the socket goes in the private /tmp, not the root the grant shows.
    assert.deepEqual(a.slice(i, i + 3), ['--ro-bind-fd', '3', '/tmp/skillctl-egress.sock']);
    assert.ok(!a.some((arg) => arg.startsWith('/tmp/skillctl-egress-')), 'no host path of the socket');
    // A bubblewrap without --ro-bind-fd is given the path.
    const old = bwrapArgs({ ...base, egress: { readsHttps: false, socket: '/tmp/skillctl-egress-x/proxy.sock', byPath: true } });
    const j = old.indexOf('/tmp/skillctl-egress-x/proxy.sock');
    assert.deepEqual(old.slice(j - 1, j + 2), ['--ro-bind', '/tmp/skillctl-egress-x/proxy.sock', '/tmp/skillctl-egress.sock']);
    assert.deepEqual(a.slice(a.indexOf('--unsetenv'), a.indexOf('--unsetenv') + 2), ['--unsetenv', 'NODE_OPTIONS']);
    assert.ok(!bwrapArgs(base).includes('--unsetenv'));
  });

  it('makes the sandbox a user namespace that can make none of its own when asked (a nested one mounts tmpfs of any size)', () => {
    const a = bwrapArgs({ ...base, noNestedUserns: true });
    const i = a.indexOf('--unshare-user');
    assert.deepEqual(a.slice(i, i + 2), ['--unshare-user', '--disable-userns']);
    assert.ok(i < a.indexOf('--ro-bind'));
    assert.ok(!bwrapArgs(base).includes('--disable-userns'));
  });

  it('installs the seccomp filter from descriptor 5 when asked, before any mount', () => {
    const a = bwrapArgs({ ...base, seccomp: true });
    const i = a.indexOf('--seccomp');
    assert.deepEqual(a.slice(i, i + 2), ['--seccomp', '5']);
    assert.ok(i < a.indexOf('--ro-bind'));
    assert.ok(!bwrapArgs(base).includes('--seccomp'));
  });

  it("shows the run's authority's certificate beside the socket when the proxy reads HTTPS, and only then", () => {
    const a = bwrapArgs({ ...base, egress: { readsHttps: true, socket: '/tmp/skillctl-egress-x/proxy.sock' } });
    const i = a.indexOf('--ro-bind-data');
    assert.deepEqual(a.slice(i, i + 3), ['--ro-bind-data', '4', '/tmp/skillctl-egress-ca.pem']);
    assert.equal(egressCaIn({ read: ['/work'], write: [] }), '/skillctl-egress-ca.pem');
    assert.ok(!bwrapArgs({ ...base, egress: { readsHttps: false, socket: '/tmp/skillctl-egress-x/proxy.sock' } }).some((arg) => arg.endsWith('ca.pem') || arg === '--ro-bind-data'));
  });
});
