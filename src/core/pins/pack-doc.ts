/**
 * Behaviour pack documents (manifests/packs/<profile>.yaml) as the lock sees them: a versioned
 * document whose identity is `profile` + `skill_pack_version` and whose digest is the sha256 of
 * the RFC 8785 JSON of its parsed content. What else a pack holds is the packs feature's concern.
 */
import { readFileBytes } from '../fs/callback-fs.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalDigest, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { formatOf, MANIFEST_MAX_BYTES, parseDocumentBytes } from '../manifest/index.js';

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
  readonly file_digest: Sha256Digest;
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
  diagnostics.push(...digest.diagnostics.map((d) => ({ ...d, file })));
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
 * Reads a pack file; a missing file is `undefined`, other read errors throw. `read` reads it (a
 * lock's `ops.readFile` when the pack is one of its pins).
 */
export async function readPackFile(abs: string, file: string, read: (path: string) => Promise<Buffer> = readFileBytes): Promise<PackDocument | undefined> {
  let bytes: Buffer;
  try {
    bytes = await read(abs);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${file}: ${code ?? String(err)}`, { cause: err });
  }
  if (bytes.length > MANIFEST_MAX_BYTES) {
    return { file_digest: sha256(bytes), diagnostics: [diag('MANIFEST_TOO_LARGE', `${file} is larger than ${MANIFEST_MAX_BYTES} bytes`, { file })] };
  }
  return toPackDocument(bytes, file);
}
