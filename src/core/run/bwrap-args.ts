/**
 * The bubblewrap argument list of a sandbox (sandbox.ts): from a spec already decided (grants,
 * protected paths, covers, sizes), the mounts in the order bubblewrap must make them. It reads
 * nothing and decides nothing: what is hidden or protected was looked at before.
 */
import { pushAll } from '../findings.js';
import { within } from '../policy/paths.js';
import { EGRESS_SOCKETS, egressCaBeside } from './egress/bridge.js';
import { SYSTEM_DIRS, type SystemEntry } from './host-layout.js';
import { protectMounts } from './protect-mounts.js';

/**
 * What dynamic linking, name resolution and TLS need; nothing with secrets. Not /etc/localtime:
 * the host's time zone is hidden context (bwrapArgs puts the run's declared zone there).
 */
const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ca-certificates',
  '/etc/group',
  '/etc/hosts',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/nsswitch.conf',
  '/etc/passwd',
  '/etc/pki',
  '/etc/resolv.conf',
  '/etc/ssl',
];

/**
 * Where the bundle appears inside the sandbox, whatever its path on the host: a run's working
 * directory, and every path to a bundle file the command names, do not depend on where the bundle
 * was checked out or an archive unpacked (seed 003: a deterministic working directory).
 */
export const BUNDLE_MOUNT = '/skill';

/** `path` as a program in the sandbox sees it: under BUNDLE_MOUNT when it is in the bundle. */
export function sandboxPath(path: string, bundle: string): string {
  return path === bundle ? BUNDLE_MOUNT : path.startsWith(`${bundle}/`) ? `${BUNDLE_MOUNT}${path.slice(bundle.length)}` : path;
}

export interface SandboxSpec {
  readonly system: readonly SystemEntry[];
  /**
   * Real path of the bundle, if the process runs one; mounted read-only at BUNDLE_MOUNT, last, so
   * nothing granted can make it writable.
   */
  readonly bundle?: string;
  /** Where the process starts (a host path): inside the bundle, or inside a granted path. */
  readonly cwd: string;
  /** Extra read-only directories the runtime needs (an interpreter installed outside /usr). */
  readonly runtimeDirs: readonly string[];
  readonly read: readonly string[];
  readonly write: readonly string[];
  /**
   * When net.http is granted: the egress proxy's socket, handed to bubblewrap as descriptor
   * EGRESS_FDS.socket, is shown at egressSocketIn, and the command starts under the bridge; by its
   * host path `socket` instead with `byPath` (a bubblewrap without `--ro-bind-fd`). With
   * `readsHttps`, the run's authority's certificate (descriptor EGRESS_FDS.ca) is shown read-only
   * beside it (egressCaIn), named by the bridge as the only trust store. Without it the sandbox
   * reaches no network at all.
   */
  readonly egress?: { readonly readsHttps: boolean; readonly socket: string; readonly byPath?: true };
  /**
   * The grants' descriptors in the program, by path (grant-pins.ts): each grant is mounted from
   * its descriptor, or left out when it has none (it did not exist). Without it, by name.
   */
  readonly pinned?: ReadonlyMap<string, number>;
  /**
   * Directories of secret keys (SECRET_DIRS) that exist inside a grant, and the host's service
   * directories a grant shows without naming them (host-sockets.ts): each covered with an empty
   * tmpfs, read-only, so that no program of the run lists or reads them, or connects to a socket
   * there; nor parks memory in them, or plants a file a later program would take for a key.
   */
  readonly hide?: readonly string[];
  /**
   * Secret files of the command that started the run (RunOptions.secretPaths) that exist inside a
   * grant (secret-files.ts), and the sockets inside one (host-sockets.ts): each covered with
   * /dev/null, read-only, so that no program of the run reads them, or connects to the service.
   */
  readonly hideFiles?: readonly string[];
  /** Paths mounted read-only over any write grant (policy, lock, audit log). */
  readonly protect: readonly string[];
  /**
   * Paths on the way from a write grant to a protected path that are not directories: the `.git`
   * file of a linked work tree or of a submodule's checkout (notDirsOnTheWay finds them).
   */
  readonly notDirs?: readonly string[];
  /**
   * What the private /tmp and /dev/shm hold together, in bytes: the run's memory limit, split
   * between them (tmpfsSizes). Without a cgroup, max_memory is an rlimit per process, and pages
   * written to a tmpfs count against no process: unbounded, a skill capped at 64 MiB parked
   * gigabytes there. Without it (a bubblewrap without `--size`), both are unbounded.
   */
  readonly tmpfsBytes?: number;
  /**
   * Whether bubblewrap installs the seccomp filter (seccomp.ts), read from descriptor SECCOMP_FD:
   * the calls that make memory no process is charged for fail with ENOSYS.
   */
  readonly seccomp?: true;
  /**
   * The sandbox is a user namespace of its own that can make none (`--unshare-user
   * --disable-userns`): nested, a skill mounted a tmpfs of any size there, past max_memory.
   */
  readonly noNestedUserns?: true;
  /** The run's declared IANA time zone (its TZ), which /etc/localtime shows inside. */
  readonly timezone?: string;
  /**
   * The host's top-level entries, when a grant is `/`: shown one by one, so that the sandbox's
   * root stays its own, where the bundle's and the egress socket's mount points can be made (a
   * host root bound there is read-only, or the host's). What the sandbox makes itself (system
   * directories, /proc, /dev, the private /tmp) is not taken from the host.
   */
  readonly rootEntries?: readonly SystemEntry[];
}

/** An IANA zone name as a path under /usr/share/zoneinfo: no `.` segment can climb out. */
const ZONE_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;

/** `pin`: a grant's own mount, made from its descriptor when the grants are pinned (grant-pins.ts). */
type Mount = { readonly kind: string; readonly path: string; readonly source?: string; readonly pin?: true; readonly size?: number };

function depth(p: string): number {
  return p === '/' ? 0 : p.split('/').length - 1;
}

/**
 * Where the sandbox shows the egress proxy's socket: the first of EGRESS_SOCKETS whose fresh
 * directory no grant covers from there down (a grant above it, `/` say, lies under it: the fresh
 * mount goes on top, being deeper). A sandbox whose grants cover all three has nowhere to put it.
 */
export function egressSocketIn(spec: Pick<SandboxSpec, 'read' | 'write'>): string {
  const grants = [...spec.read, ...spec.write];
  const free = EGRESS_SOCKETS.find((c) => !grants.some((g) => within(c.path, g) && depth(g) >= depth(c.fresh)));
  return (free ?? (EGRESS_SOCKETS[EGRESS_SOCKETS.length - 1] as (typeof EGRESS_SOCKETS)[number])).path;
}

/**
 * The descriptors bubblewrap mounts the egress files from (OpenEgress.fds hands them over in this
 * order, from 3): the proxy's socket, by a pinned descriptor rather than its path in the
 * temporary directory, which a skill of another run may be able to write; and the certificate,
 * copied from a pipe, which is on no disk at all.
 */
export const EGRESS_FDS = { socket: 3, ca: 4 } as const;

/** The descriptor bubblewrap reads the seccomp filter from (a pipe), after the egress files. */
export const SECCOMP_FD = 5;

/** Where the sandbox shows the run's authority's certificate: beside the socket. */
export function egressCaIn(spec: Pick<SandboxSpec, 'read' | 'write'>): string {
  return egressCaBeside(egressSocketIn(spec));
}

/** What the sandbox makes itself at the top of its root, never taken from a grant of `/`. */
export const OWN_TOP = new Set(['/proc', '/dev', '/tmp', BUNDLE_MOUNT, ...SYSTEM_DIRS, ...EGRESS_SOCKETS.flatMap((c) => [c.path, egressCaBeside(c.path)])]);

/**
 * The host's kernel file systems a grant shows only when it names them (or a path inside them),
 * never as an entry of `/` (security.md, How a grant is kept): /proc and /dev are the sandbox's
 * own (OWN_TOP), and the host's /sys, read-only, still showed a skill granted `/` whatever root
 * may read there (the firmware's tables, the machine's serial numbers, every cgroup's settings).
 */
const BY_NAME_ONLY = new Set(['/sys']);

/** The mounts of one grant: itself, or for `/` with the host's entries known, each entry. */
function grantMounts(path: string, kind: '--ro-bind-try' | '--bind-try', rootEntries: readonly SystemEntry[] | undefined): Mount[] {
  if (path !== '/' || rootEntries === undefined) return [{ kind, path, pin: true }];
  return rootEntries.filter((e) => !OWN_TOP.has(e.path) && !BY_NAME_ONLY.has(e.path)).map((e) => (e.symlink !== undefined ? { kind: '--symlink', path: e.path, source: e.symlink } : { kind, path: e.path }));
}

/** The largest page Linux uses (arm64, ppc64): a tmpfs rounds its size up to a whole page. */
const TMPFS_GRAIN = 64 * 1024;

/**
 * The sizes of the private /tmp and /dev/shm, which together hold at most `budget` bytes: sized
 * `budget` each, a run parked twice its memory. They cannot be one tmpfs: bubblewrap binds only
 * host paths (never a directory of the sandbox's own /tmp), and its /dev makes /dev/shm a
 * directory, where no link to /tmp can go. /dev/shm gets a quarter: POSIX semaphores (python's
 * multiprocessing) take a page each, and shared memory segments are what a run sizes to its
 * memory. Whole 64 KiB grains, rounded down, so that no page rounding takes the sum past the
 * budget; at least one grain each (a size of 0 is refused, and unbounded to the kernel).
 */
export function tmpfsSizes(budget: number): { readonly tmp: number; readonly shm: number } {
  const grains = Math.max(2, Math.floor(budget / TMPFS_GRAIN));
  const shm = Math.max(1, Math.floor(grains / 4));
  return { tmp: (grains - shm) * TMPFS_GRAIN, shm: shm * TMPFS_GRAIN };
}

/** The request without its tmpfs size, which only a bubblewrap that takes `--size` is given. */
export function withoutSize<T extends { readonly tmpfsBytes?: number }>(r: T): Omit<T, 'tmpfsBytes'> {
  const rest: { tmpfsBytes?: number } = { ...r };
  delete rest.tmpfsBytes;
  return rest as Omit<T, 'tmpfsBytes'>;
}

/** The bwrap argv (without the program to run), for `bwrap <args> -- <command>`. */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--cap-drop', 'ALL'];
  if (spec.noNestedUserns === true) args.push('--unshare-user', '--disable-userns');
  // The bridge starts without NODE_OPTIONS (it gives them back to the command, bridge.ts):
  // nothing the environment names runs in it.
  if (spec.egress !== undefined) args.push('--unsetenv', 'NODE_OPTIONS');
  if (spec.seccomp === true) args.push('--seccomp', String(SECCOMP_FD));
  const mounts: Mount[] = [];
  for (const e of spec.system) mounts.push(e.symlink !== undefined ? { kind: '--symlink', path: e.path, source: e.symlink } : { kind: '--ro-bind', path: e.path });
  for (const f of ETC_FILES) mounts.push({ kind: '--ro-bind-try', path: f });
  // A program that reads /etc/localtime rather than TZ sees the declared zone too. An unknown
  // name leaves the link dangling, which the C library reads as UTC, as it reads such a TZ.
  if (spec.timezone !== undefined && ZONE_NAME.test(spec.timezone)) mounts.push({ kind: '--symlink', path: '/etc/localtime', source: `/usr/share/zoneinfo/${spec.timezone}` });
  // /dev is made read-only below, so that nothing can be parked in it; /dev/shm (POSIX shared
  // memory, python's multiprocessing) stays writable as a tmpfs of its own, sharing /tmp's budget.
  const sizes = spec.tmpfsBytes !== undefined ? tmpfsSizes(spec.tmpfsBytes) : undefined;
  const shm: Mount = { kind: '--tmpfs', path: '/dev/shm', ...(sizes !== undefined ? { size: sizes.shm } : {}) };
  mounts.push({ kind: '--proc', path: '/proc' }, { kind: '--dev', path: '/dev' }, shm, { kind: '--tmpfs', path: '/tmp', ...(sizes !== undefined ? { size: sizes.tmp } : {}) });
  for (const d of spec.runtimeDirs) mounts.push({ kind: '--ro-bind', path: d });
  // A read grant inside a write grant is already visible (and writable): binding it read-only on
  // top would take away a write the policy allows.
  for (const r of spec.read) if (!spec.write.some((w) => within(r, w))) pushAll(mounts, grantMounts(r, '--ro-bind-try', spec.rootEntries));
  for (const w of spec.write) pushAll(mounts, grantMounts(w, '--bind-try', spec.rootEntries));
  for (const m of protectMounts(spec.protect, spec.write, spec.notDirs)) mounts.push({ kind: m.writable ? '--bind-try' : '--ro-bind-try', path: m.path });
  for (const dir of spec.hide ?? []) mounts.push({ kind: '--tmpfs', path: dir });
  for (const file of spec.hideFiles ?? []) mounts.push({ kind: '--ro-bind', path: file, source: '/dev/null' });
  // Shallower mounts first, so a deeper one lands on top of it; the sort is stable. A mount given
  // twice (two protected paths under one directory) is made once.
  const seen = new Set<string>();
  const unique = mounts.filter((m) => {
    const key = `${m.kind} ${m.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A link bubblewrap would make where a grant already shows the host's own (`/bin` under a grant
  // of `/`, `/etc/localtime` under one of `/etc`) cannot be made: the path exists there. The
  // host's is then what the grant shows.
  const grants = [...spec.read, ...spec.write].flatMap((g) => (g === '/' && spec.rootEntries !== undefined ? grantMounts(g, '--bind-try', spec.rootEntries).filter((m) => m.kind !== '--symlink').map((m) => m.path) : [g]));
  const made = unique.filter((m) => m.kind !== '--symlink' || !grants.some((g) => within(m.path, g) && depth(g) < depth(m.path)));
  const ordered = made.map((m, i) => ({ m, i })).sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i);
  for (const { m } of ordered) {
    if (m.kind === '--symlink') args.push('--symlink', m.source as string, m.path);
    else if (m.kind === '--proc' || m.kind === '--dev' || m.kind === '--tmpfs') {
      if (m.size !== undefined) args.push('--size', String(m.size));
      args.push(m.kind, m.path);
    }
    else if (m.pin === true && spec.pinned !== undefined) {
      // Not there when pinned: left out, as `-try` would leave it out.
      const fd = spec.pinned.get(m.path);
      if (fd !== undefined) args.push(m.kind === '--bind-try' ? '--bind-fd' : '--ro-bind-fd', String(fd), m.path);
    } else args.push(m.kind, m.source ?? m.path, m.path);
  }
  if (spec.bundle !== undefined) args.push('--ro-bind', spec.bundle, BUNDLE_MOUNT);
  if (spec.egress?.byPath === true) args.push('--ro-bind', spec.egress.socket, egressSocketIn(spec));
  else if (spec.egress !== undefined) args.push('--ro-bind-fd', String(EGRESS_FDS.socket), egressSocketIn(spec));
  if (spec.egress?.readsHttps === true) args.push('--ro-bind-data', String(EGRESS_FDS.ca), egressCaIn(spec));
  // After every mount into it, the egress files included (their third place is /dev, whose
  // mount points bubblewrap could not make in a read-only /dev). Not recursive: /dev/shm and
  // /dev/pts keep their own. Device nodes are still written (/dev/null); a file can no longer be
  // made there.
  args.push('--remount-ro', '/dev');
  // The sandbox's root is a tmpfs of bubblewrap's too, as unbounded: read-only once every mount
  // point in it is made (the mounts on it keep their own). Not a grant of `/` bound whole over
  // it (only without the host's entries): that root is the host's, as the grant shows it.
  if (!([...spec.read, ...spec.write].includes('/') && spec.rootEntries === undefined)) args.push('--remount-ro', '/');
  // The covers too, once the files covered inside them are (a token file, a socket): writable,
  // each was a tmpfs of its own, unbounded.
  for (const dir of new Set(spec.hide ?? [])) args.push('--remount-ro', dir);
  args.push('--chdir', spec.bundle !== undefined ? sandboxPath(spec.cwd, spec.bundle) : spec.cwd);
  return args;
}
