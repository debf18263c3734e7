import { diag, type Diagnostic } from '../diagnostics.js';
import type { ResolvedLimits } from '../manifest/limits.js';
import type { PolicyLimits } from './model.js';

const FIELDS = [
  ['timeoutMs', 'max_execution_time'],
  ['memoryMiB', 'max_memory'],
  ['maxOutputBytes', 'max_output_bytes'],
] as const;

/** The entrypoint's limits lowered to the policy's caps; an info diagnostic for each lowered one. */
export function capLimits(declared: ResolvedLimits, caps: PolicyLimits): { limits: ResolvedLimits; diagnostics: Diagnostic[] } {
  const out: { -readonly [K in keyof ResolvedLimits]: ResolvedLimits[K] } = { ...declared };
  const diagnostics: Diagnostic[] = [];
  for (const [key, field] of FIELDS) {
    const cap = caps[key];
    if (cap !== undefined && cap < out[key]) {
      diagnostics.push(diag('POLICY_LIMIT_CAPPED', `${field} lowered from ${out[key]} to the policy's cap ${cap}`));
      out[key] = cap;
    }
  }
  return { limits: out, diagnostics };
}
