/**
 * The granted paths as bubblewrap mounts them: by descriptors opened now, not by name. The run
 * checked its grants (no link on the way, POLICY_PATH_CHANGED), but bubblewrap follows links when
 * it mounts by name: a process of another run that may write the directory above a grant could
 * swap it for a link to anywhere between the check and the mount, and the sandbox would show
 * what the link names (`ws/docs -> ~/.ssh`). A descriptor opened with O_PATH|O_NOFOLLOW, whose
 * path the kernel then reports as the grant itself, names the granted directory whatever the
 * name holds by the time bubblewrap mounts it (`--bind-fd`, `--ro-bind-fd`).
 */
import type { FileHandle } from 'node:fs/promises';
import { open, readlink } from 'node:fs/promises';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { pushAll } from '../findings.js';
import { spawnBounded } from './process-runner.js';
import { SECCOMP_FD } from './bwrap-args.js';

/** O_PATH and O_NOFOLLOW as Linux numbers them on x86-64 and arm64 (socket-pin.ts says why here). */
const O_PATH = 0o10000000;
const O_NOFOLLOW = 0o400000;

/** The first descriptor a program is handed grants on: 3 and 4 are the egress files (EGRESS_FDS), 5 the seccomp filter (SECCOMP_FD). */
export const GRANT_FD_BASE = 6;

export interface PinnedGrants {
  /** The descriptor number in the program (from GRANT_FD_BASE) of each grant there now. */
  readonly numbers: ReadonlyMap<string, number>;
  /** This process's descriptors, in that order, to hand over (SpawnSpec.fds after the egress files). */
  readonly fds: readonly number[];
  release(): Promise<void>;
}

/**
 * Opens every path of `paths` (real paths, checked) that exists. One that is not itself now (a
 * link, or reached through one) is refused, as the check refuses it: POLICY_PATH_CHANGED. One
 * that does not exist is left out: bubblewrap would skip it (`--bind-try`) at that moment too.
 */
export async function pinGrants(paths: readonly string[]): Promise<PinnedGrants | { readonly refused: Diagnostic }> {
  const handles: FileHandle[] = [];
  const numbers = new Map<string, number>();
  const release = async (): Promise<void> => {
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
  };
  for (const path of new Set(paths)) {
    let handle: FileHandle;
    try {
      handle = await open(path, O_PATH | O_NOFOLLOW);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') continue;
      await release();
      return { refused: diag('POLICY_PATH_CHANGED', `${path}, a granted path, cannot be opened for the sandbox (${errnoCode(err) ?? 'error'}); the run is refused`) };
    }
    handles.push(handle);
    const st = await handle.stat();
    const now = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => '');
    if (st.isSymbolicLink() || now !== path) {
      await release();
      return { refused: diag('POLICY_PATH_CHANGED', `${path}, a granted path, ${st.isSymbolicLink() ? 'has become a symlink' : `now leads to ${now}`} since it was checked; the run is refused instead of mounting what it names`) };
    }
    numbers.set(path, GRANT_FD_BASE + numbers.size);
  }
  return { numbers, fds: handles.map((h) => h.fd), release };
}

/**
 * What a confined program is handed from descriptor 3 on: the egress files (OpenEgress.fds, none
 * without net.http), the seccomp filter (SECCOMP_FD, when the sandbox installs one), then the
 * pinned grants from GRANT_FD_BASE; nothing in a gap, and nothing after the last one given.
 */
export function descriptors(egress: readonly (number | Uint8Array)[], held: PinnedGrants | undefined, filter?: Uint8Array): (number | Uint8Array | undefined)[] {
  const out: (number | Uint8Array | undefined)[] = Array.from({ length: GRANT_FD_BASE - 3 }, (_, i) => (i === SECCOMP_FD - 3 ? filter : egress[i]));
  pushAll(out, held?.fds ?? []);
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  return out;
}

const helps = new Map<string, Promise<string>>();

/** This bubblewrap's `--help`, asked once: what it supports (its version says less, with backports). */
function bwrapHelp(bwrap: string): Promise<string> {
  let asked = helps.get(bwrap);
  if (asked === undefined) {
    asked = spawnBounded({ argv: [bwrap, '--help'], cwd: '/', env: {}, timeoutMs: 10_000, maxStdout: 1 << 16, maxStderr: 1 << 12 }).then((r) => r.stdout.toString('utf8'));
    helps.set(bwrap, asked);
  }
  return asked;
}

/**
 * Whether this bubblewrap mounts what a descriptor names (`--ro-bind-fd`), by its help, asked
 * once: 0.10 has it, and it was backported to older ones (Debian 12's 0.8, RHEL's 0.4) for
 * Flatpak's CVE-2024-42472. One without it is given names, as before, rather than refuse every
 * run: the grants (checked at the start only: the module comment says what that leaves), and the egress
 * socket, which the probe checked just before (socket-pin.ts) and every run protects
 * (scratch-root.ts).
 */
export async function mountsDescriptors(bwrap: string): Promise<boolean> {
  return (await bwrapHelp(bwrap)).includes('--ro-bind-fd');
}

/**
 * Whether this bubblewrap sizes a tmpfs (`--size`, from 0.5). One without it makes the private
 * /tmp and /dev/shm unbounded (half the host's memory each), as before, rather than refuse every
 * run: without a cgroup, what a skill parks there escapes max_memory (security.md, Limits).
 */
export async function sizesTmpfs(bwrap: string): Promise<boolean> {
  return (await bwrapHelp(bwrap)).includes('--size');
}

/** Whether this bubblewrap can keep a sandbox from making user namespaces of its own (`--disable-userns`, from 0.8). */
export async function disablesUserns(bwrap: string): Promise<boolean> {
  return (await bwrapHelp(bwrap)).includes('--disable-userns');
}
