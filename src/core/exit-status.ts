/**
 * The exit status each exit class stands for, the same for every command. It lives in the core
 * because audit records and run results carry the status a run ended with; the CLI's
 * `exitCodeFor(result)` (src/cli/exit.ts) uses the same table.
 */
import { CODES, type Diagnostic, type ExitClass } from './diagnostics.js';

export const EXIT_STATUS = { ok: 0, findings: 1, usage: 2, denied: 3, contract: 4, timeout: 124 } as const satisfies Record<
  'ok' | ExitClass,
  number
>;

/** When findings of several classes occur, the first class here decides the exit status. */
const PRIORITY: readonly ExitClass[] = ['usage', 'denied', 'contract', 'timeout', 'findings'];

/** The exit status a set of diagnostics calls for: 0 unless there is an error. */
export function exitStatusOf(diagnostics: readonly Diagnostic[]): number {
  const classes = new Set<ExitClass>(diagnostics.filter((d) => d.severity === 'error').map((d) => CODES[d.code].exit));
  for (const c of PRIORITY) if (classes.has(c)) return EXIT_STATUS[c];
  return EXIT_STATUS.ok;
}
