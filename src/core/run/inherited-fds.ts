/**
 * Descriptors skillctl inherited without close-on-exec, closed before it starts any program.
 *
 * Threat: whatever started skillctl (a wrapper script's `exec 50</tmp`, an agent host or a job
 * runner that leaks descriptors) may leave a descriptor open across exec. node's spawn only maps
 * the stdio array and bubblewrap closes nothing, so such a descriptor would reach the skill inside
 * the sandbox: a directory of the host's mount namespace lets it `openat(fd, "../..")` up to the
 * host's root and read or write anything, whatever its grants (as runc's CVE-2024-21626).
 *
 * node (libuv) opens every descriptor of its own with O_CLOEXEC, and at start-up marks those it
 * inherited close-on-exec too, but only 0-15 and on up to the first gap
 * (uv_disable_stdio_inheritance): `exec 50</tmp` stays inheritable. A descriptor without
 * O_CLOEXEC is therefore one skillctl inherited and never uses; closing it loses nothing. Kept
 * whatever their flags: 0-2 (stdio) and node's IPC channel (its NODE_CHANNEL_FD, which node
 * removes from the environment once it holds it as `process.channel`).
 *
 * Linux only (the sandbox is bubblewrap): elsewhere, or without /proc, nothing is closed.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/**
 * O_CLOEXEC as /proc/self/fdinfo/N shows it (octal `flags:`, the descriptor's close-on-exec
 * folded in by the kernel). 02000000 on every architecture node runs on under Linux (x86, arm,
 * arm64, ppc64, s390x); alpha, parisc and sparc, which differ, have no node build.
 */
const O_CLOEXEC = 0o2000000;

/** One descriptor as /proc/self/fd lists it, with its fdinfo flags, or undefined when gone. */
export interface FdFlags {
  readonly fd: number;
  readonly flags: number | undefined;
}

/** The `flags:` field of an fdinfo file, or undefined when it has none. */
export function toFdFlags(fdinfo: string): number | undefined {
  // Second line, after `pos:`; a regex costs more than the read on the first call.
  const at = fdinfo.indexOf('\nflags:');
  if (at === -1) return undefined;
  const end = fdinfo.indexOf('\n', at + 7);
  const flags = parseInt(fdinfo.slice(at + 7, end === -1 ? undefined : end).trim(), 8);
  return Number.isNaN(flags) ? undefined : flags;
}

/**
 * The descriptors to close: above 2, not `keep`, and inherited (close-on-exec clear). One whose
 * flags could not be read was closed meanwhile (the listing's own descriptor): nothing to do.
 */
export function leakedFds(fds: readonly FdFlags[], keep: ReadonlySet<number>): number[] {
  return fds.filter((f) => f.fd > 2 && !keep.has(f.fd) && f.flags !== undefined && (f.flags & O_CLOEXEC) === 0).map((f) => f.fd);
}

let closed: readonly number[] | undefined;

/**
 * Closes the descriptors this process inherited without close-on-exec (see above), once per
 * process: node opens nothing without O_CLOEXEC, so none can appear later. Returns what was
 * closed (the first call's answer, on every call).
 */
export function closeInheritedFds(): readonly number[] {
  if (closed !== undefined) return closed;
  closed = [];
  if (process.platform !== 'linux') return closed;
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    // No /proc (a chroot without it): nothing can be listed, and bubblewrap mounts its own.
    return closed;
  }
  // Typed without `fd`, which a pipe handle has on POSIX.
  const channel = (process.channel as { fd?: unknown } | undefined)?.fd;
  const keep = new Set(typeof channel === 'number' ? [channel] : []);
  // An fdinfo file is under 200 bytes before its optional lines; flags is the second line.
  const buf = Buffer.alloc(256);
  // fdinfo is read only where it can matter: each read costs about 30 µs.
  const fds = names.filter((name) => Number(name) > 2 && !keep.has(Number(name))).map((name): FdFlags => {
    const fd = Number(name);
    let info: number | undefined;
    try {
      info = openSync(`/proc/self/fdinfo/${name}`, 'r');
      return { fd, flags: toFdFlags(buf.toString('latin1', 0, readSync(info, buf, 0, buf.length, 0))) };
    } catch {
      return { fd, flags: undefined };
    } finally {
      if (info !== undefined) closeSync(info);
    }
  });
  const leaked = leakedFds(fds, keep);
  for (const fd of leaked) {
    try {
      closeSync(fd);
    } catch {
      // EBADF: gone already; either way it reaches no program.
    }
  }
  closed = leaked;
  return closed;
}
