/**
 * RFC 8785 JSON Canonicalization Scheme.
 *
 * Numbers use the ECMAScript shortest round-trip form, which is exactly what RFC 8785 §3.2.2.3
 * prescribes, so `JSON.stringify` of a finite number is already canonical. Strings use the
 * ECMAScript escaping (RFC 8785 §3.2.2.2). Object keys are sorted by UTF-16 code units
 * (§3.2.3), which is JavaScript's default string order.
 */
import { SkillctlError } from '../errors.js';

/** Deeper documents are refused rather than risking the stack (RFC 8785 inputs are I-JSON). */
export const JCS_MAX_DEPTH = 1000;

const LONE_SURROGATE = /(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/;

function fail(message: string): never {
  throw new SkillctlError('DIGEST_NOT_CANONICALIZABLE', message);
}

/**
 * Where a failing value is, as "(root)/a/0": built from the stack of keys only when something
 * fails, so canonicalising (which hashing every manifest and tree does) builds no path strings.
 */
function where(path: readonly (string | number)[]): string {
  return ['(root)', ...path.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
}

function str(s: string, path: readonly (string | number)[], isKey: boolean): string {
  // I-JSON (RFC 7493 §2.1), which RFC 8785 requires, forbids unpaired surrogates.
  if (LONE_SURROGATE.test(s)) fail(`${where(path)}${isKey ? ' key' : ''} contains an unpaired UTF-16 surrogate`);
  return JSON.stringify(s);
}

function write(value: unknown, path: (string | number)[], out: string[]): void {
  if (path.length > JCS_MAX_DEPTH) fail(`${where(path)} is nested more than ${JCS_MAX_DEPTH} levels deep`);
  switch (typeof value) {
    case 'string':
      out.push(str(value, path, false));
      return;
    case 'number':
      if (!Number.isFinite(value)) fail(`${where(path)} is ${String(value)}, which JSON cannot represent`);
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object': {
      if (value === null) {
        out.push('null');
        return;
      }
      if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          path.push(i);
          write(value[i], path, out);
          path.pop();
        }
        out.push(']');
        return;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      out.push('{');
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (i > 0) out.push(',');
        out.push(str(k, path, true), ':');
        path.push(k);
        write(obj[k], path, out);
        path.pop();
      }
      out.push('}');
      return;
    }
    default:
      fail(`${where(path)} is a ${typeof value}, which JSON cannot represent`);
  }
}

/** The canonical JSON text of `value`. Throws `DIGEST_NOT_CANONICALIZABLE` for non-JSON data. */
export function canonicalize(value: unknown): string {
  const out: string[] = [];
  write(value, [], out);
  return out.join('');
}
