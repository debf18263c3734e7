/**
 * The fingerprints of a run, written in its audit record: what identifies the call (`args`), its
 * result (`result`) and its effects (`side_effects`), each as declared by the entrypoint's
 * `*_fingerprint_fields`. Two runs of a deterministic entrypoint with the same args fingerprint
 * must end with the same result and side-effect fingerprints; `run --check-determinism` and
 * `audit diff` compare them. Only digests leave this module: the values never reach the record.
 */
import { jcsDigest, type Sha256Digest } from '../digest/index.js';

/** The fingerprints of one record; null where there is nothing to fingerprint. */
export interface RunFingerprints {
  /** null when the entrypoint or the input is unknown (the run stopped before it read them). */
  readonly args: Sha256Digest | null;
  /** null when the run produced no accepted result. */
  readonly result: Sha256Digest | null;
  /** null when the run produced no accepted result. */
  readonly side_effects: Sha256Digest | null;
}

export const NO_FINGERPRINTS: RunFingerprints = { args: null, result: null, side_effects: null };

/** The fields an entrypoint declares, per fingerprint. */
export interface FingerprintFields {
  readonly args: readonly string[];
  readonly result: readonly string[];
  readonly side_effects: readonly string[];
}

/**
 * The values a dotted path is read from: `input.…` from the input, `result.…` from the accepted
 * output, `side_effects.…` from the effects the runtime observed (skillctl observes none yet, so
 * those paths read null).
 */
export interface FingerprintRoots {
  readonly input?: unknown;
  readonly result?: unknown;
  readonly side_effects?: unknown;
}

const ROOTS = ['input', 'result', 'side_effects'] as const;

function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The value at a dotted path (`input.task`, `result.a.b`, `input` for the whole input): each
 * segment is an object property (own, never inherited); anything missing on the way is null.
 */
export function fieldValue(path: string, roots: FingerprintRoots): unknown {
  const [head, ...rest] = path.split('.');
  const root = ROOTS.find((r) => r === head);
  if (root === undefined) return null;
  let v: unknown = roots[root];
  for (const seg of rest) {
    if (!isRecord(v) || !Object.hasOwn(v, seg)) return null;
    v = v[seg];
  }
  return v === undefined ? null : v;
}

/**
 * `sha256:` of the RFC 8785 form of `{ <path>: <value>, … }` over the declared paths (no paths:
 * the digest of `{}`). Both input and output are JSON documents, so they always canonicalise.
 */
export function fingerprintOf(fields: readonly string[], roots: FingerprintRoots): Sha256Digest {
  const obj: Record<string, unknown> = {};
  for (const f of fields) obj[f] = fieldValue(f, roots);
  return jcsDigest(obj);
}

/** The fingerprints of a run from what it read and, when it produced one, its accepted result. */
export function runFingerprints(fields: FingerprintFields, input: unknown, result?: { readonly output: unknown }): RunFingerprints {
  const args = fingerprintOf(fields.args, { input });
  if (result === undefined) return { args, result: null, side_effects: null };
  const roots = { input, result: result.output };
  return { args, result: fingerprintOf(fields.result, roots), side_effects: fingerprintOf(fields.side_effects, roots) };
}

/** The names of the fingerprints that differ between two records, in the order args, result, side_effects. */
export function fingerprintDifferences(a: RunFingerprints, b: RunFingerprints): (keyof RunFingerprints)[] {
  return (['args', 'result', 'side_effects'] as const).filter((k) => a[k] !== b[k]);
}
