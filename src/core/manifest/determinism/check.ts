import type { Diagnostic } from '../../diagnostics.js';
import type { ViewedEntrypoint } from '../rules/index.js';

/**
 * One input of determinism eligibility, checked on one entrypoint. A check reports only what no
 * loader rule reports already (those errors count against eligibility by themselves, inputs.ts),
 * and at info severity: an ineligible entrypoint is still a valid one.
 */
export interface DeterminismCheck {
  readonly name: string;
  check(entry: ViewedEntrypoint, data: Readonly<Record<string, unknown>>): Diagnostic[];
}
