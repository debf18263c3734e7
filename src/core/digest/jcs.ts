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

function str(s: string, where: string): string {
  // I-JSON (RFC 7493 §2.1), which RFC 8785 requires, forbids unpaired surrogates.
  if (LONE_SURROGATE.test(s)) fail(`${where} contains an unpaired UTF-16 surrogate`);
  return JSON.stringify(s);
}

function write(value: unknown, depth: number, where: string, out: string[]): void {
  if (depth > JCS_MAX_DEPTH) fail(`${where} is nested more than ${JCS_MAX_DEPTH} levels deep`);
  switch (typeof value) {
    case 'string':
      out.push(str(value, where));
      return;
    case 'number':
      if (!Number.isFinite(value)) fail(`${where} is ${String(value)}, which JSON cannot represent`);
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
        value.forEach((item, i) => {
          if (i > 0) out.push(',');
          write(item, depth + 1, `${where}/${i}`, out);
        });
        out.push(']');
        return;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      out.push('{');
      keys.forEach((k, i) => {
        if (i > 0) out.push(',');
        out.push(str(k, `${where} key`), ':');
        write(obj[k], depth + 1, `${where}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
      });
      out.push('}');
      return;
    }
    default:
      fail(`${where} is a ${typeof value}, which JSON cannot represent`);
  }
}

/** The canonical JSON text of `value`. Throws `DIGEST_NOT_CANONICALIZABLE` for non-JSON data. */
export function canonicalize(value: unknown): string {
  const out: string[] = [];
  write(value, 0, '(root)', out);
  return out.join('');
}
