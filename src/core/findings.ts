/**
 * Findings per input are capped: a hostile payload of 120,000 items, or a manifest of thousands
 * of unknown keys, would otherwise cost a source position, a sentence and an output line each,
 * and bury the one finding that matters. The first findings in the deterministic order are kept
 * (errors before warnings, so a capped input stays as invalid as it was), and one more finding
 * says how many were left out.
 */
import { diag, sortDiagnostics, type Diagnostic, type Severity } from './diagnostics.js';

/** Findings listed for one input (a manifest, a payload, a lock file...); the rest are counted. */
export const MAX_FINDINGS_PER_INPUT = 1000;

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/**
 * `diagnostics` sorted, with at most `max` of them and, when some were left out, a
 * FINDINGS_TRUNCATED finding (about `file`) as severe as the worst one left out.
 */
export function capFindings(diagnostics: readonly Diagnostic[], file?: string, max: number = MAX_FINDINGS_PER_INPUT): Diagnostic[] {
  if (diagnostics.length <= max) return sortDiagnostics(diagnostics);
  const sorted = sortDiagnostics(diagnostics);
  // A stable sort: within a severity, the deterministic order above.
  const bySeverity = [...sorted].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
  const kept = bySeverity.slice(0, max);
  const left = bySeverity.slice(max);
  const worst = left.reduce<Severity>((w, d) => (RANK[d.severity] < RANK[w] ? d.severity : w), 'info');
  const out = sortDiagnostics(kept);
  out.push(
    diag('FINDINGS_TRUNCATED', `${left.length} more finding${left.length === 1 ? '' : 's'} not listed; only the first ${max} of ${diagnostics.length} are`, {
      severity: worst,
      ...(file !== undefined ? { file } : {}),
      hint: 'fix the findings listed, then check again',
    }),
  );
  return out;
}

/**
 * Appends `items` to `target` one by one: `target.push(...items)` passes every item as an
 * argument, and an array of a hundred thousand findings overflows the stack.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
