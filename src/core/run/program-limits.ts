/**
 * The rlimits of a program a built-in starts (shell.exec_safe's command, git, rg) when no cgroup
 * holds the run: without them each such program had no memory limit at all (a python3 started by
 * shell.exec_safe in a run capped at 64 MiB held 300 MiB), nor a process count. prlimit inside
 * the sandbox, as for a process runtime (runtimes/process.ts), with RLIMIT_NPROC where the sandbox
 * counts its own tasks; and an address-space limit of max_memory (node gets a data-segment limit
 * above its own baseline instead: V8 reserves far more address space than it uses). Not a data
 * limit for the others, though git and rg map whole files (under 64 MiB of address space a
 * `git log` in a repository with a 150 MB pack fails, "packfile cannot be mapped"): a data limit
 * does not count shared anonymous memory (`mmap.mmap(-1, n)` in python), and a python3 under a
 * data limit of 64 MiB held 300 MiB that way.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { lookupCommand } from '../fs/find-command.js';
import { RUN_MAX_PROCESSES } from './cgroup.js';
import { programWritable } from './writable.js';

/** The prlimit found for a run's programs (none: not installed, with the warning), or why no program is run. */
export type Limiter = { readonly path?: string; readonly diagnostics: readonly Diagnostic[] } | { readonly refused: Diagnostic };

/** Whether `file` is a node binary (by its name: node, nodejs, node24). */
export function isNodeProgram(file: string): boolean {
  return /^node(?:js)?\d*$/.test(basename(file));
}

/** VmData of this process, KiB: an upper bound of a fresh node's baseline (interpreter.ts). */
export function ownDataKiB(): number | undefined {
  try {
    const m = /VmData:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/**
 * The prlimit arguments of a program under `memoryBytes`, with the process count when
 * `countsOwn`: an address-space limit, or for a node (`node`) a data-segment limit above its
 * baseline, none when that is unknown. Shared with the process runtimes (runtimes/process.ts).
 */
export function limitArgs(memoryBytes: number, countsOwn: boolean, node?: { readonly baselineKiB: number | undefined }): string[] {
  const mem = node === undefined ? `--as=${memoryBytes}` : node.baselineKiB !== undefined ? `--data=${memoryBytes + node.baselineKiB * 1024}` : undefined;
  return ['--core=0', ...(mem !== undefined ? [mem] : []), ...(countsOwn ? [`--nproc=${RUN_MAX_PROCESSES}`] : [])];
}

/** prlimit for the programs of a run without a cgroup: found on `pathEnv`, never inside a write grant. */
export async function findLimiter(pathEnv: string, writable: readonly string[]): Promise<Limiter> {
  const prlimit = await lookupCommand('prlimit', pathEnv, { writable });
  const planted = programWritable('prlimit', prlimit);
  if (planted !== undefined) return { refused: planted };
  if (!prlimit.ok) return { diagnostics: [diag('RUN_MEMORY_UNCAPPED', `prlimit is ${prlimit.reason}; max_memory is not enforced for the programs this built-in starts`, { hint: 'install util-linux' })] };
  return { path: prlimit.path, diagnostics: [] };
}
