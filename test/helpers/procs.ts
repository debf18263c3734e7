import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * Pids of live processes whose command line contains `marker` (and, given `program`, whose first
 * argument names that program: after an exec, not while a launcher such as setpriv still runs),
 * read from /proc. Not /proc/PID/comm: Node 24 names its main thread, and comm is that name.
 */
export function processesWith(marker: string, program?: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\u0000/g, ' ');
      if (cmd.includes(marker) && (program === undefined || basename(cmd.split(' ')[0] ?? '') === program)) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** The CPU time process `pid` has used (user and system, /proc/PID/stat), in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
