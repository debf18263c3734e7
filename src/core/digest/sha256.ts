import { hash } from 'node:crypto';
import type { Result } from '../diagnostics.js';
import { canonicalize, canonicalJson } from './jcs.js';

/** `sha256:` followed by 64 lowercase hex digits: the only digest form skillctl writes or accepts. */
export const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;

export type Sha256Digest = `sha256:${string}`;

export function isSha256Digest(value: unknown): value is Sha256Digest {
  return typeof value === 'string' && SHA256_DIGEST.test(value);
}

/** `sha256:<hex>` of raw bytes (a string is hashed as UTF-8). */
export function sha256(data: Uint8Array | string): Sha256Digest {
  // One-shot: no Hash object per call, which costs more than hashing a small file.
  return `sha256:${hash('sha256', data, 'hex')}`;
}

/** `sha256:<hex>` of the RFC 8785 canonical JSON of `value`, UTF-8 encoded. */
export function jcsDigest(value: unknown): Sha256Digest {
  return sha256(canonicalize(value));
}

/** `jcsDigest` of data read from a file: its digest, or DIGEST_NOT_CANONICALIZABLE. */
export function canonicalDigest(value: unknown): Result<Sha256Digest> {
  const r = canonicalJson(value);
  return r.value === undefined ? { ok: false, diagnostics: r.diagnostics } : { ok: true, value: sha256(r.value), diagnostics: [] };
}
