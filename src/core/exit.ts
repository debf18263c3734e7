/** Exit statuses, the same for every command (and recorded in audit records). */
import { CODES, type Diagnostic, type ExitClass } from './diagnostics.js';

export const EXIT = { ok: 0, findings: 1, usage: 2, denied: 3, contract: 4, timeout: 124 } as const satisfies Record<
  'ok' | ExitClass,
  number
>;

/** When findings of several classes occur, the first class here decides the exit status. */
const PRIORITY: readonly ExitClass[] = ['usage', 'denied', 'contract', 'timeout', 'findings'];

/** The exit status for a set of diagnostics: 0 unless there is an error. */
export function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  const classes = new Set<ExitClass>(diagnostics.filter((d) => d.severity === 'error').map((d) => CODES[d.code].exit));
  for (const c of PRIORITY) if (classes.has(c)) return EXIT[c];
  return EXIT.ok;
}
