/**
 * The receipt a wasm run's record carries (`result.wasm`, docs/formats/wasm.md) against the rest
 * of the record: its caps_used are exactly the kinds of the capabilities the record says were
 * used, and its digests are digests. The receipt_hash already seals the record; this catches a
 * record that was sealed inconsistent (rewritten and re-hashed, or written by a faulty writer).
 */
import { isSha256Digest } from '../digest/index.js';

/** Why the record's wasm receipt disagrees with the record, or undefined when it agrees (or has none). */
export function wasmReceiptProblem(record: Record<string, unknown>): string | undefined {
  const result = record.result as { wasm?: unknown } | null | undefined;
  if (result === null || typeof result !== 'object' || result.wasm === undefined) return undefined;
  const w = result.wasm as { artifact_digest?: unknown; output_bytes_digest?: unknown; caps_used?: unknown };
  if (w === null || typeof w !== 'object') return 'result.wasm is not an object';
  if (!isSha256Digest(w.artifact_digest)) return 'result.wasm.artifact_digest is not a sha256 digest';
  if (w.output_bytes_digest !== null && !isSha256Digest(w.output_bytes_digest)) return 'result.wasm.output_bytes_digest is neither null nor a sha256 digest';
  const used = (record.policy as { capabilities?: { used?: unknown } } | null | undefined)?.capabilities?.used;
  // Only strings: String() of a hostile record's `{"toString":1}` throws, which ended verify as an internal error.
  if (used !== null && used !== undefined && !(Array.isArray(used) && used.every((u) => typeof u === 'string'))) return 'policy.capabilities.used is not a list of strings';
  const kinds = Array.isArray(used) ? [...new Set(used.map((u: string) => u.split(':')[0]))].sort() : [];
  const caps = Array.isArray(w.caps_used) && w.caps_used.every((c) => typeof c === 'string') ? (w.caps_used as string[]) : undefined;
  if (caps === undefined || caps.join('\n') !== kinds.join('\n')) return `result.wasm.caps_used ${JSON.stringify(w.caps_used)} is not the kinds of policy.capabilities.used ${JSON.stringify(kinds)}`;
  return undefined;
}
