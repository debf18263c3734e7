import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose command line contains `marker` (and, given `program`, whose executable name is it), read from /proc. */
export function processesWith(marker: string, program?: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\u0000/g, ' ');
      if (cmd.includes(marker) && (program === undefined || readFileSync(`/proc/${name}/comm`, 'utf8').trim() === program)) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}
