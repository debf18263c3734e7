/**
 * Determinism eligibility, per entrypoint (seed 003: derived by the loader, never by
 * `requested_determinism_profile`). Each input is checked on its own and explained by a finding
 * with a pointer: the loader errors of the inputs' stages, plus the info findings of the checks
 * here for what the loader does not reject (an output left out of the fingerprint, say).
 */
import { diag, type Code, type Diagnostic } from '../../diagnostics.js';
import type { ViewedEntrypoint } from '../rules/index.js';
import type { DeterminismCheck } from './check.js';
import { contextDeclared } from './context.js';
import { fingerprintCoverage } from './fingerprints.js';
import { inputOf } from './inputs.js';
import { runtimeExact } from './runtime.js';
import { sideEffectCoverage } from './side-effects.js';

export { inputOf, type DeterminismInput } from './inputs.js';

/** Every determinism check, one per input the loader does not settle alone. */
export const DETERMINISM_CHECKS: readonly DeterminismCheck[] = [runtimeExact, fingerprintCoverage, sideEffectCoverage, contextDeclared];

/** One reason an entrypoint is not eligible: a finding's code, pointer and message. */
export interface DeterminismReason {
  readonly code: Code;
  readonly pointer: string;
  readonly message: string;
}

export interface EntrypointDeterminism {
  readonly eligible: boolean;
  /** Sorted by pointer, then code; empty when eligible. */
  readonly reasons: readonly DeterminismReason[];
}

export interface EntrypointSummary {
  /** Absent when the entrypoint has no readable entrypoint_id. */
  readonly entrypoint_id?: string;
  /** `/entrypoints/<index>` */
  readonly pointer: string;
  readonly determinism: EntrypointDeterminism;
}

export interface DeterminismFindings {
  /** Each finding once, for the manifest's diagnostics. */
  readonly findings: readonly Diagnostic[];
  /** Each entrypoint's own findings, by index: an inherited one is every inheritor's. */
  readonly byEntrypoint: ReadonlyMap<number, readonly Diagnostic[]>;
}

export function checkDeterminism(data: Readonly<Record<string, unknown>>, entrypoints: readonly ViewedEntrypoint[]): DeterminismFindings {
  const byEntrypoint = new Map<number, readonly Diagnostic[]>();
  const seen = new Set<string>();
  const findings: Diagnostic[] = [];
  for (const entry of entrypoints) {
    const own = DETERMINISM_CHECKS.flatMap((c) => c.check(entry, data));
    byEntrypoint.set(entry.index, own);
    for (const d of own) {
      const key = `${d.code} ${d.pointer ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(d);
    }
  }
  return { findings, byEntrypoint };
}

const ENTRYPOINT_POINTER = /^\/entrypoints\/(\d+)(?:\/|$)/;

/**
 * Does a loader error concern entrypoint `index`? Schema validity is the manifest's, so a parse or
 * schema error concerns every entrypoint; any other concerns the entrypoint it points into, or
 * every one when it points outside them (a default they inherit).
 */
function concerns(d: Diagnostic, index: number): boolean {
  if (inputOf(d) === 'schema') return true;
  const m = ENTRYPOINT_POINTER.exec(d.pointer ?? '');
  return m === null || Number(m[1]) === index;
}

function byPointer(a: DeterminismReason, b: DeterminismReason): number {
  const key = (r: DeterminismReason): string[] => [r.pointer, r.code, r.message];
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as string) < (y[i] as string) ? -1 : 1;
  return 0;
}

/**
 * Each entrypoint's eligibility: eligible when no finding tells against any input, that is, no
 * loader error of an input's stage concerns it and no determinism check found anything.
 */
export function summariseEntrypoints(entrypoints: readonly ViewedEntrypoint[], own: ReadonlyMap<number, readonly Diagnostic[]>, diagnostics: readonly Diagnostic[]): EntrypointSummary[] {
  const errors = diagnostics.filter((d) => d.severity === 'error' && inputOf(d) !== undefined);
  // Schema validity is one input: its first error stands for all of them (they are all listed in
  // the findings already), so a manifest of a thousand unknown keys does not repeat each per entrypoint.
  const schema = errors.find((d) => inputOf(d) === 'schema');
  const staged = errors.filter((d) => inputOf(d) !== 'schema');
  return entrypoints.map(({ index, pointer, ep }) => {
    const found = [...(schema !== undefined ? [schema] : []), ...staged.filter((d) => concerns(d, index)), ...(own.get(index) ?? [])];
    const reasons = found.map((d) => ({ code: d.code, pointer: d.pointer ?? '', message: d.message })).sort(byPointer);
    return { ...(ep.entrypoint_id !== undefined ? { entrypoint_id: ep.entrypoint_id } : {}), pointer, determinism: { eligible: reasons.length === 0, reasons } };
  });
}

/** DETERMINISM_REQUEST_UNMET for each entrypoint that requests strict determinism and is not eligible. */
export function unmetRequests(entrypoints: readonly ViewedEntrypoint[], summaries: readonly EntrypointSummary[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  entrypoints.forEach(({ ep, pointer, label }, i) => {
    const verdict = summaries[i]?.determinism;
    if (ep.requested_determinism_profile !== 'strict' || verdict === undefined || verdict.eligible) return;
    const codes = [...new Set(verdict.reasons.map((r) => r.code))].join(', ');
    out.push(
      diag('DETERMINISM_REQUEST_UNMET', `entrypoint ${label} requests strict determinism but is not determinism-eligible (${codes})`, {
        pointer: `${pointer}/requested_determinism_profile`,
        hint: 'fix the findings named; validate --json lists them under entrypoints[].determinism.reasons',
      }),
    );
  });
  return out;
}
