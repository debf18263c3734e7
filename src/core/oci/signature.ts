/**
 * Signatures as OCI referrers. A signature is a manifest of artifact type SKILL_SIGNATURE whose
 * `subject` is the skill's manifest and whose one layer is `{signer, algorithm, digest,
 * signature}`: skillctl's Ed25519 signature (src/core/sign) of the manifest digest. It is found
 * through the referrers API, or where a registry has none (its PUT answers without OCI-Subject),
 * through the OCI 1.1 fallback: an image index tagged `sha256-<hex>` listing the referrers.
 *
 * Verifying fails closed: every referrer is untrusted (any client with push rights can add one),
 * so a signature counts only when its subject is the pulled digest, its layer verifies, its
 * signer is in the trusted keys and it is by a key not already counted.
 */
import { canonicalize, sha256, type Sha256Digest } from '../digest/index.js';
import { isSkillctlError, SkillctlError } from '../errors.js';
import { signDigest, verifyDigestSignature, type PublicKey, type SecretKey } from '../sign/index.js';
import { OCI_EMPTY, OCI_INDEX, OCI_MANIFEST, parseJson, SKILL_SIGNATURE, SMALL_BLOB_MAX_BYTES, toDescriptor, type Descriptor } from './artifact.js';
import type { RegistryClient } from './client.js';

export interface PushedSignature {
  readonly signer: string;
  readonly digest: Sha256Digest;
  /** `referrers-api` when the registry indexed it itself, `tag` when the fallback index was written. */
  readonly via: 'referrers-api' | 'tag';
}

const EMPTY = Buffer.from('{}', 'utf8');
const EMPTY_DESCRIPTOR: Descriptor = { mediaType: OCI_EMPTY, digest: sha256(EMPTY), size: EMPTY.length };

/** The referrers tag of the OCI 1.1 fallback: `sha256-<hex>`. */
export function referrersTag(digest: Sha256Digest): string {
  return digest.replace(':', '-');
}

export async function pushSignature(client: RegistryClient, subject: Descriptor, sign: { key: SecretKey; signer: string }): Promise<PushedSignature> {
  const body = Buffer.from(canonicalize({ signer: sign.signer, algorithm: 'ed25519', digest: subject.digest, signature: signDigest(sign.key, subject.digest) }), 'utf8');
  const layer: Descriptor = { mediaType: SKILL_SIGNATURE, digest: sha256(body), size: body.length };
  const manifest = Buffer.from(
    canonicalize({ schemaVersion: 2, mediaType: OCI_MANIFEST, artifactType: SKILL_SIGNATURE, config: EMPTY_DESCRIPTOR, layers: [layer], subject }),
    'utf8',
  );
  const digest = sha256(manifest);
  await client.uploadBlob(EMPTY, EMPTY_DESCRIPTOR.digest);
  await client.uploadBlob(body, layer.digest);
  const { subjectAccepted } = await client.putManifest(digest, manifest, OCI_MANIFEST);
  if (subjectAccepted) return { signer: sign.signer, digest, via: 'referrers-api' };
  // No referrers API: add this manifest to the index under the referrers tag. Read, add, write:
  // two pushes at once can lose one entry, as the spec's fallback says; pushing again restores it.
  const tag = referrersTag(subject.digest);
  const existing = await client.getManifestIfAny(tag, [OCI_INDEX]);
  const manifests = existing !== undefined ? indexEntries(existing.bytes, `referrers index ${tag}`) : [];
  if (!manifests.some((m) => m.digest === digest)) manifests.push({ mediaType: OCI_MANIFEST, digest, size: manifest.length, artifactType: SKILL_SIGNATURE });
  await client.putManifest(tag, Buffer.from(canonicalize({ schemaVersion: 2, mediaType: OCI_INDEX, manifests }), 'utf8'), OCI_INDEX);
  return { signer: sign.signer, digest, via: 'tag' };
}

function indexEntries(bytes: Buffer, what: string): Descriptor[] {
  const doc = parseJson(bytes, what);
  if (!Array.isArray(doc.manifests)) throw new SkillctlError('OCI_MANIFEST_INVALID', `${what} has no manifests list`);
  return doc.manifests.map((m) => toDescriptor(m, what));
}

/** Signature manifests referring to `subject`: through the referrers API, else the fallback tag. */
async function signatureReferrers(client: RegistryClient, subject: Sha256Digest): Promise<Descriptor[]> {
  const api = await client.referrers(subject, SKILL_SIGNATURE);
  const index = api ?? (await client.getManifestIfAny(referrersTag(subject), [OCI_INDEX]))?.bytes;
  if (index === undefined) return [];
  return indexEntries(index, `referrers of ${subject}`).filter((d) => d.artifactType === SKILL_SIGNATURE && d.mediaType === OCI_MANIFEST);
}

/** One referrer's signer, if it is a valid signature of `subject` by a trusted key; undefined otherwise. */
async function verifiedSigner(client: RegistryClient, ref: Descriptor, subject: Sha256Digest, keys: ReadonlyMap<string, PublicKey>): Promise<PublicKey | undefined> {
  try {
    const m = await client.getManifest(ref.digest, [OCI_MANIFEST]);
    const doc = parseJson(m.bytes, `signature ${ref.digest}`);
    const subj = toDescriptor(doc.subject, `signature ${ref.digest}`);
    if (subj.digest !== subject || doc.artifactType !== SKILL_SIGNATURE || !Array.isArray(doc.layers) || doc.layers.length !== 1) return undefined;
    const layer = toDescriptor(doc.layers[0], `signature ${ref.digest}`);
    if (layer.mediaType !== SKILL_SIGNATURE) return undefined;
    const sig = parseJson(await client.getSmallBlob(layer, SMALL_BLOB_MAX_BYTES), `signature ${ref.digest}`);
    if (sig.algorithm !== 'ed25519' || sig.digest !== subject || typeof sig.signer !== 'string' || typeof sig.signature !== 'string') return undefined;
    const key = keys.get(sig.signer);
    if (key === undefined) return undefined;
    return (await verifyDigestSignature(key.key, subject, sig.signature)) ? key : undefined;
  } catch (err) {
    // A broken referrer is one signature that does not count, not a failed pull.
    if (isSkillctlError(err) && CODES_OF_BAD_REFERRER.has(err.code)) return undefined;
    throw err;
  }
}

const CODES_OF_BAD_REFERRER = new Set<string>(['OCI_MANIFEST_INVALID', 'OCI_DIGEST_MISMATCH', 'OCI_SIZE_MISMATCH', 'OCI_NOT_FOUND', 'OCI_MEDIA_TYPE_UNSUPPORTED', 'OCI_MANIFEST_TOO_LARGE']);

/** The distinct trusted signers (by key) of `subject`, sorted by signer id. */
export async function trustedSigners(client: RegistryClient, subject: Sha256Digest, keys: ReadonlyMap<string, PublicKey>): Promise<string[]> {
  const byKey = new Map<string, string>();
  for (const ref of (await signatureReferrers(client, subject)).slice(0, 64)) {
    const key = await verifiedSigner(client, ref, subject, keys);
    if (key !== undefined && !byKey.has(key.base64)) byKey.set(key.base64, key.signer);
  }
  return [...byKey.values()].sort();
}
