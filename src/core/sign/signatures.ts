/**
 * signatures.json, in the reference's format: `{manifest_hash, signatures: [{signer, algorithm,
 * signature}]}` (provenact bundles add `artifact`). Each signature is Ed25519 over the UTF-8 bytes
 * of the manifest digest string, `sha256:` prefix included, in standard base64.
 *
 * The checks fail closed: every signature present must verify (one bad signature is a finding even
 * when enough good ones exist), a signer counts once, and signers sharing a public key count as
 * one towards `min_signers`.
 */
import { sign as signRaw, verify as verifyRaw, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { diag, type Diagnostic } from '../diagnostics.js';
import { isSha256Digest } from '../digest/index.js';
import { parseDocumentBytes } from '../manifest/index.js';
import { SMALL_ORDER_ENCODINGS } from './curve.js';
import { SIGNER_ID, type PublicKey, type SecretKey } from './keys.js';

const verifyAsync = promisify(verifyRaw);
const SMALL_ORDER_R = new Set(SMALL_ORDER_ENCODINGS);

export interface SignatureEntry {
  readonly signer: string;
  readonly algorithm: string;
  readonly signature: string;
}

export interface SignaturesDoc {
  readonly manifest_hash: string;
  /** Provenact bundles only: the wasm digest. */
  readonly artifact?: string;
  readonly signatures: readonly SignatureEntry[];
}

const B64_64 = /^[A-Za-z0-9+/]{86}==$/;

function isEntry(v: unknown): v is SignatureEntry {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  const keys = Object.keys(e).sort().join(',');
  return keys === 'algorithm,signature,signer' && typeof e.signer === 'string' && typeof e.algorithm === 'string' && typeof e.signature === 'string';
}

/**
 * Parses signatures.json strictly: exactly the reference's fields (`artifact` only when
 * `withArtifact`), each signature entry exactly `{signer, algorithm, signature}`.
 */
export function loadSignatures(bytes: Uint8Array, file: string, withArtifact = false): { doc?: SignaturesDoc; diagnostics: Diagnostic[] } {
  const parsed = parseDocumentBytes(bytes, 'json', 'signatures file');
  if (parsed.data === undefined) {
    return { diagnostics: parsed.diagnostics.map((d) => ({ ...d, code: 'SIGNATURES_INVALID' as const, file })) };
  }
  const data = parsed.data as Record<string, unknown>;
  const bad = (message: string, pointer: string): { diagnostics: Diagnostic[] } => ({
    diagnostics: [diag('SIGNATURES_INVALID', message, { file, pointer, ...parsed.locate(pointer) })],
  });
  const allowed = new Set(['manifest_hash', 'signatures', ...(withArtifact ? ['artifact'] : [])]);
  for (const k of Object.keys(data)) if (!allowed.has(k)) return bad(`unknown field \`${k}\``, `/${k}`);
  if (!isSha256Digest(data.manifest_hash)) return bad('manifest_hash is not a sha256: digest', '/manifest_hash');
  if (withArtifact && !isSha256Digest(data.artifact)) return bad('artifact is not a sha256: digest', '/artifact');
  if (!Array.isArray(data.signatures)) return bad('signatures is not a list', '/signatures');
  const entries: SignatureEntry[] = [];
  for (const [i, e] of data.signatures.entries()) {
    if (!isEntry(e)) return bad('a signature entry must be exactly {signer, algorithm, signature} strings', `/signatures/${i}`);
    entries.push(e);
  }
  return { doc: { ...(data as unknown as SignaturesDoc), signatures: entries }, diagnostics: [] };
}

/**
 * The finding for signatures of a bundle manifest that declares no `content_digest` (`file` names
 * the manifest). What is signed is the manifest digest, which covers the bundle's other files only
 * through that field: without it a signature vouches for any code beside the manifest, so pin
 * refuses to sign or record one, and verify-pins counts none.
 */
export function signaturesUncovered(file: string): Diagnostic {
  return diag('SIGNATURES_INVALID', "the manifest declares no content_digest: a signature of it covers none of the bundle's other files", {
    file,
    pointer: '/content_digest',
    hint: 'skillctl validate --fix adds content_digest; then sign again (skillctl pin --sign)',
  });
}

/** Ed25519 signature of the digest string, standard base64. */
export function signDigest(key: SecretKey, digest: string): string {
  return signRaw(null, Buffer.from(digest, 'utf8'), key.privateKey).toString('base64');
}

/**
 * Verifies one signature of `digest`; false for malformed base64, a wrong length, or an R of small
 * order. By default on the thread pool (the callback form), so many bundles verify in parallel;
 * `blocking` verifies on the calling thread.
 */
export async function verifyDigestSignature(key: KeyObject, digest: string, signature: string, blocking = false): Promise<boolean> {
  if (!B64_64.test(signature)) return false;
  const raw = Buffer.from(signature, 'base64');
  if (raw.length !== 64 || raw.toString('base64') !== signature) return false;
  // An R of small order makes a signature that proves nothing of the secret key (R = identity,
  // S = 0 verifies every message under a small-order key; curve.ts). libsodium refuses it.
  if (SMALL_ORDER_R.has(raw.subarray(0, 32).toString('hex'))) return false;
  const data = Buffer.from(digest, 'utf8');
  return blocking ? verifyRaw(null, data, key, raw) : verifyAsync(null, data, key, raw);
}

/** signatures.json with `entry` added or replacing the same signer; entries sorted by signer, then algorithm. */
export function upsertSignature(doc: SignaturesDoc | undefined, digest: string, entry: SignatureEntry): SignaturesDoc {
  // Signatures over another manifest digest are stale: they cannot verify, so they are dropped.
  const kept = doc !== undefined && doc.manifest_hash === digest ? doc.signatures.filter((s) => s.signer !== entry.signer) : [];
  const signatures = [...kept, entry].sort((a, b) => (a.signer < b.signer ? -1 : a.signer > b.signer ? 1 : a.algorithm < b.algorithm ? -1 : a.algorithm > b.algorithm ? 1 : 0));
  return { ...(doc?.artifact !== undefined ? { artifact: doc.artifact } : {}), manifest_hash: digest, signatures };
}

/** 2-space JSON, keys sorted, trailing newline. */
export function renderSignatures(doc: SignaturesDoc): string {
  const sorted = {
    ...(doc.artifact !== undefined ? { artifact: doc.artifact } : {}),
    manifest_hash: doc.manifest_hash,
    signatures: doc.signatures.map((s) => ({ algorithm: s.algorithm, signature: s.signature, signer: s.signer })),
  };
  return JSON.stringify(sorted, null, 2) + '\n';
}

export interface SignaturePolicy {
  /** The manifest digest the signatures must cover (the recomputed one, never a declared one). */
  readonly digest: string;
  readonly keys: ReadonlyMap<string, PublicKey>;
  /** Signers that must have signed; `undefined` accepts any set of valid signers. */
  readonly expected?: readonly string[];
  /** Valid signatures from distinct public keys required. */
  readonly minSigners: number;
  /** Where findings point: signatures.json's name, and the expected list's location in the lock. */
  readonly file: string;
  readonly lockFile?: string;
  readonly lockPointer?: string;
  /**
   * Verify on the calling thread. For a caller that is one of several threads doing nothing else
   * (verify-pins' pool): handing each check to the thread pool only adds threads competing for
   * the same cores.
   */
  readonly blocking?: boolean;
}

export interface SignatureCheck {
  /** Signers whose signature verified, sorted. */
  readonly valid: readonly string[];
  /** Distinct public keys behind the valid signatures. */
  readonly distinctKeys: number;
  readonly diagnostics: readonly Diagnostic[];
}

/** Checks every signature of `doc` (which may be absent) against the policy. */
export async function checkSignatures(doc: SignaturesDoc | undefined, policy: SignaturePolicy): Promise<SignatureCheck> {
  const { file } = policy;
  const diagnostics: Diagnostic[] = [];
  const valid: string[] = [];
  const reported = new Set<string>();
  if (doc !== undefined && doc.manifest_hash !== policy.digest) {
    diagnostics.push(
      diag('SIGNATURES_INVALID', `signatures.json is for manifest ${doc.manifest_hash}, not ${policy.digest}`, {
        file,
        pointer: '/manifest_hash',
        hint: 'sign the current manifest again (skillctl pin --sign)',
      }),
    );
  } else if (doc !== undefined) {
    const seen = new Set<string>();
    const checks = doc.signatures.map(async (s, i) => {
      const pointer = `/signatures/${i}`;
      if (seen.has(s.signer)) {
        diagnostics.push(diag('SIGNATURES_INVALID', `${s.signer} signs more than once`, { file, pointer: `${pointer}/signer` }));
        return;
      }
      seen.add(s.signer);
      reported.add(s.signer);
      if (!SIGNER_ID.test(s.signer)) {
        diagnostics.push(diag('SIGNATURES_INVALID', `signer id ${JSON.stringify(s.signer)} is not valid`, { file, pointer: `${pointer}/signer` }));
      } else if (s.algorithm !== 'ed25519') {
        diagnostics.push(diag('SIGNATURES_INVALID', `algorithm ${JSON.stringify(s.algorithm)} is not ed25519`, { file, pointer: `${pointer}/algorithm` }));
      } else {
        const key = policy.keys.get(s.signer);
        if (key === undefined) {
          diagnostics.push(diag('SIGNER_UNKNOWN', `${s.signer} has no key in the public-keys file`, { file, pointer: `${pointer}/signer` }));
        } else if (await verifyDigestSignature(key.key, policy.digest, s.signature, policy.blocking === true)) {
          valid.push(s.signer);
        } else {
          diagnostics.push(diag('SIGNATURE_BAD', `the signature of ${s.signer} does not verify`, { file, pointer: `${pointer}/signature` }));
        }
      }
    });
    await Promise.all(checks);
  }
  valid.sort();
  const at = { ...(policy.lockFile !== undefined ? { file: policy.lockFile } : { file }), ...(policy.lockPointer !== undefined ? { pointer: policy.lockPointer } : {}) };
  if (policy.expected !== undefined) {
    for (const signer of policy.expected) {
      if (!valid.includes(signer) && !reported.has(signer)) {
        diagnostics.push(diag('SIGNATURE_MISSING', `no signature by ${signer}`, { ...at, hint: `skillctl pin --sign <key> --signer ${signer}` }));
      }
    }
    for (const signer of valid) {
      if (!policy.expected.includes(signer)) {
        diagnostics.push(diag('SIGNER_UNEXPECTED', `${signer} signed, but the lock does not list this signer`, { ...at, hint: 'pin again to record the signer set' }));
      }
    }
  }
  const distinctKeys = new Set(valid.map((s) => policy.keys.get(s)?.base64)).size;
  if (distinctKeys < policy.minSigners) {
    diagnostics.push(
      diag('TOO_FEW_SIGNERS', `${distinctKeys} valid signature${distinctKeys === 1 ? '' : 's'} from distinct keys; at least ${policy.minSigners} required`, at),
    );
  }
  return { valid, distinctKeys, diagnostics };
}
