/**
 * Behaviour pack documents (manifests/packs/<profile>.yaml) as the lock sees them: a versioned
 * document whose identity is `profile` + `skill_pack_version` and whose digest is the sha256 of
 * the RFC 8785 JSON of its parsed content. What else a pack holds is the packs feature's concern.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalDigest, sha256, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { describeRefusal, readBounded, refusalCode } from '../fs/read-bounded.js';
import { formatOf, MANIFEST_MAX_BYTES, parseDocumentBytes } from '../manifest/index.js';
import { pushAll } from '../findings.js';

const ID = /^[a-z0-9]+(?:[._-][a-z0-9]+)*$/;
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** File names a pack document may have. */
export const PACK_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

export interface PackDocument {
  readonly profile?: string;
  readonly skill_pack_version?: string;
  /** JCS digest of the parsed document, when it parsed. */
  readonly pack_digest?: Sha256Digest;
  /** sha256 of the file's bytes; absent when the file was refused unread (over the bound). */
  readonly file_digest?: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads a pack document's identity and digests from its bytes. `file` names it in diagnostics. */
export function toPackDocument(bytes: Uint8Array, file: string): PackDocument {
  const file_digest = sha256(bytes);
  const doc = parseDocumentBytes(bytes, formatOf(file));
  const diagnostics: Diagnostic[] = doc.diagnostics.map((d) => ({ ...d, file }));
  if (doc.data === undefined) return { file_digest, diagnostics };
  const data = doc.data as Record<string, unknown>;
  const digest = canonicalDigest(data);
  const pack_digest = digest.value;
  pushAll(diagnostics, digest.diagnostics.map((d) => ({ ...d, file })));
  const out = { file_digest, ...(pack_digest !== undefined ? { pack_digest } : {}) };
  const profile = data.profile;
  const version = data.skill_pack_version;
  if (typeof profile !== 'string' || !ID.test(profile)) {
    diagnostics.push(diag('PACK_DOCUMENT_INVALID', 'profile must be a lowercase id such as daily', { file, pointer: '/profile', ...doc.locate('/profile') }));
  }
  if (typeof version !== 'string' || !SEMVER.test(version)) {
    diagnostics.push(
      diag('PACK_DOCUMENT_INVALID', 'skill_pack_version must be a semantic version such as 0.1.0', {
        file,
        pointer: '/skill_pack_version',
        ...doc.locate('/skill_pack_version'),
      }),
    );
  }
  return {
    ...out,
    ...(typeof profile === 'string' ? { profile } : {}),
    ...(typeof version === 'string' ? { skill_pack_version: version } : {}),
    diagnostics,
  };
}

/**
 * Reads a pack file; a missing file is `undefined`, other read errors throw. A FIFO or device is
 * refused before it is opened, a file over the bound without being read (read-bounded.ts). `read`
 * reads it (a lock's `ops.readBounded` when the pack is one of its pins, so a git tree's).
 */
export async function readPackFile(abs: string, file: string, read: typeof readBounded = readBounded): Promise<PackDocument | undefined> {
  const r = await read(abs, { maxBytes: MANIFEST_MAX_BYTES });
  if (r.ok) return toPackDocument(r.bytes, file);
  if (r.reason === 'missing' || (r.reason === 'not-regular' && r.kind === 'directory')) return undefined;
  if (r.reason === 'too-large') return { diagnostics: [diag('MANIFEST_TOO_LARGE', `${file} is larger than ${MANIFEST_MAX_BYTES} bytes`, { file })] };
  throw new SkillctlError(refusalCode(r), describeRefusal(r, file));
}
