/**
 * The exit status of a command, a pure function of its result. The table of statuses is the
 * core's (src/core/exit-status.ts), because audit records carry the status of a run too.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { EXIT_STATUS, exitStatusOf } from '../core/exit-status.js';

export const EXIT = EXIT_STATUS;

/** What the exit status is decided from: a core result, or a command's findings alone. */
export interface Outcome {
  /** False when the command did not do what was asked, even if no finding says why in an exit class. */
  readonly ok?: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** The worst finding's exit class decides; a result that is not `ok` is never 0. */
export function exitCodeFor(result: Outcome): number {
  const status = exitStatusOf(result.diagnostics);
  return status === EXIT.ok && result.ok === false ? EXIT.findings : status;
}
