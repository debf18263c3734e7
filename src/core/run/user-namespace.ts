/**
 * Whether RLIMIT_NPROC set inside a sandbox counts the sandbox's processes alone. Without a
 * cgroup nothing else caps how many processes a run starts, and each gets max_memory of its own:
 * a fork bomb capped at 64 MiB a process held 64 MiB times as many processes as the user may
 * have. The limit counts the tasks (processes and threads) of the real user id, and since Linux
 * 5.14 it counts them per user namespace: in a sandbox with a user namespace of its own, the
 * count starts at the sandbox. Without one (an older kernel, a setuid bubblewrap that makes no
 * user namespace) it would count every process the user has on the host, and a user with more
 * than the cap running could not start a program at all: then it is not set. Root is exempt from
 * the limit in the host's user namespace, and bubblewrap run by root makes no user namespace:
 * root's runs have the run's cgroup instead, where the host gives one.
 */
import { release as kernelRelease } from 'node:os';
import { readFile, stat } from 'node:fs/promises';

export interface NprocHost {
  /** This process's user id. */
  readonly uid: number;
  /** Whether the bubblewrap found is setuid (it may then make the namespaces without a user namespace). */
  readonly setuidBwrap: boolean;
  /** The kernel's release string (`uname -r`). */
  readonly release: string;
}

/** Whether the kernel `release` counts RLIMIT_NPROC per user namespace (5.14 and later). */
export function countsPerUserNamespace(release: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(release);
  if (m === null) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 5 || (major === 5 && minor >= 14);
}

/** Whether a sandbox on `host` counts its own processes under RLIMIT_NPROC. */
export function nprocHolds(host: NprocHost): boolean {
  return host.uid !== 0 && !host.setuidBwrap && countsPerUserNamespace(host.release);
}

/** The same, for this process and the bubblewrap at `bwrapPath`. */
export async function sandboxCountsOwnProcesses(bwrapPath: string): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  let setuidBwrap: boolean;
  try {
    setuidBwrap = ((await stat(bwrapPath)).mode & 0o4000) !== 0;
  } catch {
    return false;
  }
  return nprocHolds({ uid, setuidBwrap, release: kernelRelease() });
}

/**
 * Whether bubblewrap at `bwrapPath` is sure to make the sandbox a user namespace of its own (so
 * that `--unshare-user` cannot fail where `--unshare-all` alone went on without one): it is not
 * setuid (run by a user who is not root, it has nothing else to make the sandbox with; as root it
 * makes one where the host allows any) and the host allows user namespaces. Then the sandbox can
 * be kept from making its own, nested (`--disable-userns`): in one, a skill holds every capability
 * over a mount namespace of its own and mounts a tmpfs of any size, which counts against no
 * rlimit and, without a cgroup, against nothing (security.md, Limits).
 */
export async function sandboxMakesUserns(bwrapPath: string): Promise<boolean> {
  try {
    if (((await stat(bwrapPath)).mode & 0o4000) !== 0) return false;
    return Number((await readFile('/proc/sys/user/max_user_namespaces', 'utf8')).trim()) > 0;
  } catch {
    return false;
  }
}
