/**
 * Reading what a registry sends in a response that is not the object asked for: an error's own
 * explanation (the distribution spec's `errors` array) and small bodies such as a token
 * service's answer. Both are bounded: a registry is untrusted and may send without end.
 */
import { isSkillctlError, SkillctlError } from '../errors.js';
import type { HttpResponse } from '../net/index.js';

/** How much of an error or token body is read. */
export const ERROR_BODY_MAX = 64 * 1024;

/** The registry's own explanation: the `errors` array of the distribution spec, bounded, control characters removed. */
export async function registryMessage(res: HttpResponse): Promise<string> {
  let text = '';
  try {
    let total = 0;
    const parts: Buffer[] = [];
    while (total < ERROR_BODY_MAX) {
      const value = await res.body.read();
      if (value === undefined) break;
      parts.push(value);
      total += value.length;
    }
    await res.body.cancel();
    text = Buffer.concat(parts).subarray(0, ERROR_BODY_MAX).toString('utf8');
    const doc = JSON.parse(text) as { errors?: { code?: unknown; message?: unknown }[] };
    if (Array.isArray(doc.errors) && doc.errors.length > 0) {
      text = doc.errors.map((e) => [e.code, e.message].filter((x) => typeof x === 'string').join(': ')).join('; ');
    }
  } catch (err) {
    // The request was given up while its body was read (the deadline): that is the failure.
    if (isSkillctlError(err)) throw err;
    // Not JSON, or cut: the text itself, as far as it was read.
  }
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 300);
  return clean === '' ? `HTTP ${res.status}` : `HTTP ${res.status}: ${clean}`;
}

/** Reads a small body whole, refusing more than `max` bytes. */
export async function boundedText(res: HttpResponse, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let total = 0;
  for (let value = await res.body.read(); value !== undefined; value = await res.body.read()) {
    total += value.length;
    if (total > max) {
      await res.body.cancel();
      throw new SkillctlError('OCI_REGISTRY_ERROR', `a response body is over ${max} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}
