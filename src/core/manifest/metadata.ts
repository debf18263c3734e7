/**
 * Validation metadata: a deterministic summary of what the diagnostics mean for loading and
 * replaying the skill. `determinism_eligible` is derived from the inputs seed 003 lists (and the
 * execution context), per entrypoint in determinism/; here it is true when every entrypoint is
 * eligible. `requested_determinism_profile` never changes it.
 */
import type { Diagnostic } from '../diagnostics.js';
import { inputOf, type DeterminismInput } from './determinism/index.js';
import { VALIDATION_POLICY_VERSION } from './model.js';

export type Risk = 'declared' | 'undeclared' | 'unknown';

export interface ValidationMetadata {
  readonly contract_valid: boolean;
  readonly determinism_eligible: boolean;
  readonly side_effect_risk: Risk;
  readonly fingerprint_completeness: 'complete' | 'incomplete' | 'unknown';
  readonly permission_risk: Risk;
  readonly runtime_pinning: 'pinned' | 'unpinned' | 'unknown';
  readonly trust_level: 'validated' | 'untrusted';
  readonly validation_policy_version: string;
}

/** The metadata of a manifest that could not be read, so nothing could be judged. */
export const UNKNOWN_METADATA: ValidationMetadata = {
  contract_valid: false,
  determinism_eligible: false,
  side_effect_risk: 'unknown',
  fingerprint_completeness: 'unknown',
  permission_risk: 'unknown',
  runtime_pinning: 'unknown',
  trust_level: 'untrusted',
  validation_policy_version: VALIDATION_POLICY_VERSION,
};

export function deriveMetadata(diagnostics: readonly Diagnostic[]): ValidationMetadata {
  // Each input is told against by its loader errors and by the determinism checks' findings.
  const against = new Set<DeterminismInput>();
  for (const d of diagnostics) {
    const input = inputOf(d);
    if (input !== undefined) against.add(input);
  }
  // Input 1: schema validity (the document parses, fits the schema, embeds valid schemas).
  const contractValid = !against.has('schema');
  const pick = <T>(bad: T, good: T, unknown: T, input: DeterminismInput): T => (!contractValid ? unknown : against.has(input) ? bad : good);
  // Inputs 2-5: runtime pinning, fingerprint completeness, side-effect coverage, permissions.
  return {
    contract_valid: contractValid,
    // Every entrypoint eligible: nothing tells against any input (the context included).
    determinism_eligible: against.size === 0,
    side_effect_risk: pick<Risk>('undeclared', 'declared', 'unknown', 'side_effect'),
    fingerprint_completeness: pick<'complete' | 'incomplete' | 'unknown'>('incomplete', 'complete', 'unknown', 'fingerprint'),
    permission_risk: pick<Risk>('undeclared', 'declared', 'unknown', 'permissions'),
    runtime_pinning: pick<'pinned' | 'unpinned' | 'unknown'>('unpinned', 'pinned', 'unknown', 'runtime'),
    trust_level: diagnostics.some((d) => d.severity === 'error') ? 'untrusted' : 'validated',
    validation_policy_version: VALIDATION_POLICY_VERSION,
  };
}
