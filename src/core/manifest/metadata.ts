/**
 * Validation metadata: a deterministic summary of what the diagnostics mean for loading and
 * replaying the skill. `determinism_eligible` is derived from exactly the five inputs seed 003
 * lists; `requested_determinism_profile` never changes it.
 */
import type { Code, Diagnostic } from '../diagnostics.js';
import { LOADER_CLASS, type ValidationStage } from './loader-error.js';
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

function stageOf(code: Code): ValidationStage | undefined {
  return (LOADER_CLASS as Partial<Record<Code, { stage: ValidationStage }>>)[code]?.stage;
}

export function deriveMetadata(diagnostics: readonly Diagnostic[]): ValidationMetadata {
  const errorStages = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => stageOf(d.code)));
  const failed = (stage: ValidationStage): boolean => errorStages.has(stage);
  // Input 1: schema validity (the document parses, fits the schema, embeds valid schemas).
  const contractValid = !failed('parse') && !failed('schema');
  const pick = <T>(bad: T, good: T, unknown: T, stage: ValidationStage): T =>
    !contractValid ? unknown : failed(stage) ? bad : good;
  // Inputs 2-5: runtime pinning, fingerprint completeness, side-effect coverage, permissions.
  const runtime_pinning = pick<'pinned' | 'unpinned' | 'unknown'>('unpinned', 'pinned', 'unknown', 'runtime');
  const fingerprint_completeness = pick<'complete' | 'incomplete' | 'unknown'>('incomplete', 'complete', 'unknown', 'fingerprint');
  const side_effect_risk = pick<Risk>('undeclared', 'declared', 'unknown', 'side_effect');
  const permission_risk = pick<Risk>('undeclared', 'declared', 'unknown', 'permissions');
  return {
    contract_valid: contractValid,
    determinism_eligible:
      contractValid &&
      runtime_pinning === 'pinned' &&
      fingerprint_completeness === 'complete' &&
      side_effect_risk === 'declared' &&
      permission_risk === 'declared',
    side_effect_risk,
    fingerprint_completeness,
    permission_risk,
    runtime_pinning,
    trust_level: errorStages.size === 0 ? 'validated' : 'untrusted',
    validation_policy_version: VALIDATION_POLICY_VERSION,
  };
}
