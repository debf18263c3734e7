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
// Almost no string holds a surrogate at all; this plain class is far cheaper than the lookarounds.
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Where a failing value is, as "(root)/a/0": built from the stack of keys only when something
 * fails, so canonicalising (which hashing every manifest and tree does) builds no path strings.
 */
function where(path: readonly (string | number)[]): string {
  return ['(root)', ...path.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
}

/**
 * Writes canonical text by string concatenation, which V8 keeps as a rope until it is read:
 * cheaper, for the many small pieces of a manifest, than collecting them in an array to join.
 * The first value with no canonical form sets `problem`; everything written after it is discarded.
 */
class Writer {
  problem: string | undefined;

  private fail(problem: string): string {
    this.problem ??= problem;
    return '';
  }

  str(s: string, path: readonly (string | number)[], isKey: boolean): string {
    // I-JSON (RFC 7493 §2.1), which RFC 8785 requires, forbids unpaired surrogates.
    if (ANY_SURROGATE.test(s) && LONE_SURROGATE.test(s)) return this.fail(`${where(path)}${isKey ? ' key' : ''} contains an unpaired UTF-16 surrogate`);
    return JSON.stringify(s);
  }

  value(value: unknown, path: (string | number)[]): string {
    if (path.length > JCS_MAX_DEPTH) return this.fail(`${where(path)} is nested more than ${JCS_MAX_DEPTH} levels deep`);
    switch (typeof value) {
      case 'string':
        return this.str(value, path, false);
      case 'number':
        return Number.isFinite(value) ? JSON.stringify(value) : this.fail(`${where(path)} is ${String(value)}, which JSON cannot represent`);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'object': {
        if (value === null) return 'null';
        if (Array.isArray(value)) {
          let out = '[';
          for (let i = 0; i < value.length && this.problem === undefined; i++) {
            path.push(i);
            out += (i > 0 ? ',' : '') + this.value(value[i], path);
            path.pop();
          }
          return `${out}]`;
        }
        const obj = value as Record<string, unknown>;
        let out = '{';
        let first = true;
        for (const k of Object.keys(obj).sort()) {
          const v = obj[k];
          if (v === undefined) continue;
          if (this.problem !== undefined) break;
          const key = this.str(k, path, true);
          path.push(k);
          out += (first ? '' : ',') + key + ':' + this.value(v, path);
          path.pop();
          first = false;
        }
        return `${out}}`;
      }
      default:
        return this.fail(`${where(path)} is a ${typeof value}, which JSON cannot represent`);
    }
  }
}

/**
 * The canonical JSON text of `value`, or DIGEST_NOT_CANONICALIZABLE: for data read from a file,
 * where a value JSON cannot represent is a finding about that file.
 */
export function canonicalJson(value: unknown): Result<string> {
  const writer = new Writer();
  const text = writer.value(value, []);
  if (writer.problem !== undefined) return { ok: false, diagnostics: [diag('DIGEST_NOT_CANONICALIZABLE', writer.problem)] };
  return { ok: true, value: text, diagnostics: [] };
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
