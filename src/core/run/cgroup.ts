/**
 * A cgroup for one run, so that max_memory and a process count hold for the whole run rather
 * than per process (six children of 128 MiB each are 768 MiB: rlimits alone let that pass).
 * Where the host lets skillctl make one: cgroup v2 with the memory and pids controllers delegated
 * to skillctl's own cgroup, or the v1 memory and pids hierarchies (as on a host where skillctl
 * runs as root). The process joins it before it execs (a small `sh` prefix writes its own pid,
 * then execs the command), so nothing it starts escapes. When the run ends, whatever is left in
 * it is killed and the cgroup removed. Where none can be had, caps stay per process, and the
 * run's record says so (`result.caps`).
 */
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../errors.js';

/** Where the host's cgroup hierarchies are, and where this process sits in them (from /proc/self/cgroup). */
export interface CgroupHost {
  /** Usually /sys/fs/cgroup. */
  readonly root: string;
  /** `/proc/self/cgroup`'s lines: `0::/path` (v2), `4:memory:/path` (v1). */
  readonly self: string;
}

export interface RunCgroup {
  /** What goes before the command: joins the cgroup, then execs the rest. */
  readonly prefix: readonly string[];
  /** Whether the memory cap was hit (a process was killed by it). */
  oomKilled(): Promise<boolean>;
  /** Kills what is left in the cgroup and removes it. */
  release(): Promise<void>;
}

/** The most processes (and threads) a run may have at once. */
export const RUN_MAX_PROCESSES = 256;

function selfPath(host: CgroupHost, controller: string): string | undefined {
  for (const line of host.self.split('\n')) {
    const [, controllers, path] = line.split(':') as [string, string | undefined, string | undefined];
    if (controllers === undefined || path === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller)) return path;
  }
  return undefined;
}

const JOIN = 'for f in "$@"; do case "$f" in --) break;; esac; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"';

function joinPrefix(procsFiles: readonly string[]): string[] {
  return ['/bin/sh', '-c', JOIN, 'skillctl-cgroup', ...procsFiles, '--'];
}

async function killAll(procs: string): Promise<void> {
  // A process may fork while it is being killed: read the list until it is empty (bounded).
  for (let i = 0; i < 20; i++) {
    let pids: number[];
    try {
      pids = (await readFile(procs, 'utf8')).split('\n').filter((l) => l !== '').map(Number);
    } catch {
      return;
    }
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function removeDir(dir: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      // EBUSY while the last killed process is still being reaped.
      if (errnoCode(err) !== 'EBUSY') return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

async function tryV2(host: CgroupHost, name: string, memoryBytes: number): Promise<RunCgroup | undefined> {
  const own = selfPath(host, '');
  if (own === undefined) return undefined;
  const base = join(host.root, own);
  let controllers: string;
  try {
    controllers = await readFile(join(base, 'cgroup.subtree_control'), 'utf8');
  } catch {
    return undefined;
  }
  // Delegated to us: the controllers are on for our children (a cgroup with processes of its own
  // cannot turn them on; a service manager that delegates does it for us).
  if (!/\bmemory\b/.test(controllers) || !/\bpids\b/.test(controllers)) return undefined;
  const dir = join(base, name);
  try {
    await mkdir(dir);
    await writeFile(join(dir, 'memory.max'), String(memoryBytes));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
    await writeFile(join(dir, 'pids.max'), String(RUN_MAX_PROCESSES));
  } catch {
    await removeDir(dir);
    return undefined;
  }
  return {
    prefix: joinPrefix([join(dir, 'cgroup.procs')]),
    oomKilled: async () => /^oom_kill [1-9]/m.test(await readFile(join(dir, 'memory.events'), 'utf8').catch(() => '')),
    release: async () => {
      await writeFile(join(dir, 'cgroup.kill'), '1').catch(() => killAll(join(dir, 'cgroup.procs')));
      await killAll(join(dir, 'cgroup.procs'));
      await removeDir(dir);
    },
  };
}

async function tryV1(host: CgroupHost, name: string, memoryBytes: number): Promise<RunCgroup | undefined> {
  const dirs: string[] = [];
  const make = async (controller: 'memory' | 'pids'): Promise<string> => {
    const own = selfPath(host, controller) ?? '/';
    const dir = join(host.root, controller, own, name);
    await mkdir(dir);
    dirs.push(dir);
    return dir;
  };
  try {
    const memory = await make('memory');
    await writeFile(join(memory, 'memory.limit_in_bytes'), String(memoryBytes));
    // Swap counts too where the host accounts it; where it does not, the file is absent.
    await writeFile(join(memory, 'memory.memsw.limit_in_bytes'), String(memoryBytes)).catch(() => undefined);
    const pids = await make('pids');
    await writeFile(join(pids, 'pids.max'), String(RUN_MAX_PROCESSES));
    return {
      prefix: joinPrefix(dirs.map((d) => join(d, 'cgroup.procs'))),
      oomKilled: async () => /^oom_kill [1-9]/m.test(await readFile(join(memory, 'memory.oom_control'), 'utf8').catch(() => '')),
      release: async () => {
        for (const d of dirs) await killAll(join(d, 'cgroup.procs'));
        for (const d of dirs) await removeDir(d);
      },
    };
  } catch {
    for (const d of dirs.reverse()) await removeDir(d);
    return undefined;
  }
}

/** A cgroup capping the run at `memoryMiB` and RUN_MAX_PROCESSES, or undefined when the host gives none. */
export async function makeRunCgroup(host: CgroupHost | undefined, runId: string, memoryMiB: number): Promise<RunCgroup | undefined> {
  if (host === undefined || process.platform !== 'linux') return undefined;
  const name = `skillctl-run-${runId}`;
  const bytes = Math.max(8, Math.floor(memoryMiB)) * 1024 * 1024;
  return (await tryV2(host, name, bytes)) ?? (await tryV1(host, name, bytes));
}
