/**
 * The typed lock models. Untrusted lock files become these only through `loadLock`, which checks
 * them against their JSON Schema first; verifiers see nothing else.
 */
import type { Sha256Digest } from '../digest/index.js';
import { MANIFEST_MAX_BYTES } from '../manifest/index.js';

/** A lock holds one entry per bundle: far more room than a manifest needs. */
export const LOCK_MAX_BYTES = 16 * MANIFEST_MAX_BYTES;

export const LOCK_VERSION = 'skillctl.lock.v1';
/** Where a project keeps its lock, relative to the project root. */
export const DEFAULT_LOCK_PATH = 'pins/skills.lock.json';
/** The default public-keys file name, beside the lock. */
export const DEFAULT_KEYS_FILE = 'public-keys.json';

/**
 * One pinned skill, from a directory or an archive: a manifest bundle, or (`kind: "agent-skill"`)
 * an Agent Skills folder, whose identity is its SKILL.md `name` and `metadata.version` and whose
 * `manifest_digest` is that of the manifest skillctl derives for it (src/core/agent-skills/identity.ts).
 */
export interface SkillPin {
  /** Absent for a manifest bundle, so locks written before Agent Skills pins read unchanged. */
  readonly kind?: 'agent-skill';
  readonly skill_id: string;
  readonly skill_version: string;
  /** POSIX path relative to the project root: the skill folder, or a `.tgz` archive. */
  readonly source: string;
  readonly manifest_digest: Sha256Digest;
  readonly content_digest: Sha256Digest;
  /** The content_digest recipe over every file, the manifest and signatures.json included. */
  readonly files_digest: Sha256Digest;
  /** sha256 of the archive bytes; present exactly when `source` is an archive. */
  readonly archive_digest?: Sha256Digest;
  /** Signers that must have signed `manifest_digest`, sorted. */
  readonly signers: readonly string[];
  /** Where the skill was pulled from, when it was (one key per scheme). */
  readonly origin?: SkillOrigin;
}

/** Where a pulled skill came from: exactly one key, named for the scheme it was pulled by. */
export interface SkillOrigin {
  /** `pull oci://…`: the reference as given (tag, no digest) and the manifest digest it resolved to. */
  readonly oci?: { readonly reference: string; readonly digest: Sha256Digest };
  /** `pull skill://…`: the MCP server, the skill URI and the resource set (src/core/mcp-skills/). */
  readonly mcp?: McpPinOrigin;
}

export interface McpPinOrigin {
  readonly server: { readonly command: readonly string[] } | { readonly url: string };
  readonly uri: string;
  readonly files: readonly { readonly path: string; readonly digest: Sha256Digest; readonly size: number }[];
}

/** One pinned behaviour pack document (manifests/packs/<profile>.yaml). */
export interface PackPin {
  readonly profile: string;
  readonly skill_pack_version: string;
  readonly source: string;
  /** sha256 of the RFC 8785 JSON of the parsed document. */
  readonly pack_digest: Sha256Digest;
  /** sha256 of the file's raw bytes. */
  readonly file_digest: Sha256Digest;
}

export interface SkillctlLock {
  readonly lock_version: typeof LOCK_VERSION;
  readonly min_signers: number;
  readonly keys_file?: string;
  readonly keys_digest?: Sha256Digest;
  /**
   * Where the project keeps its skills, relative to the project root (skill-roots.ts); absent for
   * the defaults, so locks that never changed them read unchanged in older versions.
   */
  readonly skill_roots?: readonly string[];
  readonly skills: readonly SkillPin[];
  readonly packs: readonly PackPin[];
}

/** One entry of a provenact-skills lock (schema_version 1.0.0). */
export interface ProvenactPin {
  readonly id: string;
  readonly version: string;
  readonly bundle_dir: string;
  readonly artifact: Sha256Digest;
  readonly manifest_hash: Sha256Digest;
  readonly keys_file: string;
  readonly keys_digest: Sha256Digest;
  readonly signers: readonly string[];
}

export interface ProvenactLock {
  readonly schema_version: '1.0.0';
  readonly generated_at?: string;
  readonly substrate_pin?: { readonly repo: string; readonly commit: string };
  readonly skills: readonly ProvenactPin[];
}

export type LoadedLock =
  | { readonly format: 'skillctl'; readonly lock: SkillctlLock }
  | { readonly format: 'provenact'; readonly lock: ProvenactLock };

/** Signer id to public key, as a keys file maps them (`verify-pins --base` counts signers by key). */
export type SignerKeys = ReadonlyMap<string, { readonly base64: string }>;
