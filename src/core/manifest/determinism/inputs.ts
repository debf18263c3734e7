import type { Code, Diagnostic } from '../../diagnostics.js';
import { stageOf, type ValidationStage } from '../loader-error.js';

/**
 * What determinism eligibility is derived from: seed 003's five inputs (schema validity, runtime
 * pinning, fingerprint completeness, side-effect coverage, permission declarations), and the
 * execution context it requires to be declared or inherited.
 */
export type DeterminismInput = 'schema' | 'runtime' | 'fingerprint' | 'side_effect' | 'permissions' | 'context';

/** The findings of the determinism checks (info), by the input each tells against. */
export const ELIGIBILITY_INPUT = {
  DETERMINISM_RUNTIME_INEXACT: 'runtime',
  DETERMINISM_FINGERPRINT_UNCOVERED: 'fingerprint',
  DETERMINISM_SIDE_EFFECT_UNCOVERED: 'side_effect',
  DETERMINISM_CONTEXT_FROM_HOST: 'context',
} as const satisfies Partial<Record<Code, DeterminismInput>>;

/** The loader errors that tell against an input, by their stage. */
const STAGE_INPUT: Partial<Record<ValidationStage, DeterminismInput>> = {
  parse: 'schema',
  schema: 'schema',
  runtime: 'runtime',
  fingerprint: 'fingerprint',
  side_effect: 'side_effect',
  permissions: 'permissions',
};

export function isEligibilityFinding(code: Code): code is keyof typeof ELIGIBILITY_INPUT {
  return Object.hasOwn(ELIGIBILITY_INPUT, code);
}

/**
 * The input a finding tells against, if any: a determinism check's finding, or an error of one
 * of the inputs' stages (a warning never does: DETERMINISM_REQUEST_UNMET is a consequence).
 */
export function inputOf(d: Diagnostic): DeterminismInput | undefined {
  if (isEligibilityFinding(d.code)) return ELIGIBILITY_INPUT[d.code];
  if (d.severity !== 'error') return undefined;
  // An invalid locale, time zone or encoding is a context neither declared nor defaulted.
  if (d.code === 'EXECUTION_CONTEXT_INVALID') return 'context';
  const stage = stageOf(d.code);
  return stage === undefined ? undefined : STAGE_INPUT[stage];
}
