/**
 * RFC 8785 JSON Canonicalization Scheme.
 *
 * Numbers use the ECMAScript shortest round-trip form, which is exactly what RFC 8785 §3.2.2.3
 * prescribes, so `JSON.stringify` of a finite number is already canonical. Strings use the
 * ECMAScript escaping (RFC 8785 §3.2.2.2). Object keys are sorted by UTF-16 code units
 * (§3.2.3), which is JavaScript's default string order.
 */
import { diag, type Result } from '../diagnostics.js';
import { SkillctlError } from '../errors.js';

/** Deeper documents are refused rather than risking the stack (RFC 8785 inputs are I-JSON). */
export const JCS_MAX_DEPTH = 1000;

const LONE_SURROGATE = /(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

/** Why a value has no canonical form; undefined once it was written out. */
type Problem = string | undefined;

/**
 * Where a failing value is, as "(root)/a/0": built from the stack of keys only when something
 * fails, so canonicalising (which hashing every manifest and tree does) builds no path strings.
 */
function where(path: readonly (string | number)[]): string {
  return ['(root)', ...path.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
}

function str(s: string, path: readonly (string | number)[], isKey: boolean, out: string[]): Problem {
  // I-JSON (RFC 7493 §2.1), which RFC 8785 requires, forbids unpaired surrogates.
  if (LONE_SURROGATE.test(s)) return `${where(path)}${isKey ? ' key' : ''} contains an unpaired UTF-16 surrogate`;
  out.push(JSON.stringify(s));
  return undefined;
}

/** Appends the canonical text of `value` to `out`, or returns why it has none (and stops). */
function write(value: unknown, path: (string | number)[], out: string[]): Problem {
  if (path.length > JCS_MAX_DEPTH) return `${where(path)} is nested more than ${JCS_MAX_DEPTH} levels deep`;
  switch (typeof value) {
    case 'string':
      return str(value, path, false, out);
    case 'number':
      if (!Number.isFinite(value)) return `${where(path)} is ${String(value)}, which JSON cannot represent`;
      out.push(JSON.stringify(value));
      return undefined;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return undefined;
    case 'object': {
      if (value === null) {
        out.push('null');
        return undefined;
      }
      if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          path.push(i);
          const problem = write(value[i], path, out);
          if (problem !== undefined) return problem;
          path.pop();
        }
        out.push(']');
        return undefined;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      out.push('{');
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (i > 0) out.push(',');
        const keyProblem = str(k, path, true, out);
        if (keyProblem !== undefined) return keyProblem;
        out.push(':');
        path.push(k);
        const problem = write(obj[k], path, out);
        if (problem !== undefined) return problem;
        path.pop();
      }
      out.push('}');
      return undefined;
    }
    default:
      return `${where(path)} is a ${typeof value}, which JSON cannot represent`;
  }
}

/**
 * The canonical JSON text of `value`, or DIGEST_NOT_CANONICALIZABLE: for data read from a file,
 * where a value JSON cannot represent is a finding about that file.
 */
export function canonicalJson(value: unknown): Result<string> {
  const out: string[] = [];
  const problem = write(value, [], out);
  if (problem !== undefined) return { ok: false, diagnostics: [diag('DIGEST_NOT_CANONICALIZABLE', problem)] };
  return { ok: true, value: out.join(''), diagnostics: [] };
}

/**
 * The canonical JSON text of `value`, for data the caller built itself. Throws
 * `DIGEST_NOT_CANONICALIZABLE` (a SkillctlError) for non-JSON data.
 */
export function canonicalize(value: unknown): string {
  const r = canonicalJson(value);
  if (r.value === undefined) throw new SkillctlError('DIGEST_NOT_CANONICALIZABLE', r.diagnostics[0]?.message ?? 'not canonicalizable');
  return r.value;
}
