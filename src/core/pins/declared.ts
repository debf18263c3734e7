/**
 * What a pinned folder declares itself to be: its identity and manifest digest, read from its
 * manifest (a skill.contract.v1 bundle, whose own digests must agree with its files) or from its
 * SKILL.md (an Agent Skills folder). Part of verifying a skill pin (verify-skill.ts).
 */
import { agentSkillManifestDigest, agentSkillVersion, parseSkillMd, SKILL_MD_NAMES, toProperties } from '../agent-skills/index.js';
import { MANIFEST_NAMES, type BundleFile, type BundleSource } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { pushAll } from '../findings.js';
import { computeManifestDigest, formatOf, parseDocumentBytes } from '../manifest/index.js';

/** A file of the source, or undefined with BUNDLE_UNREADABLE added to `found`. */
export async function readOr(source: BundleSource, path: string, file: string, found: Diagnostic[]): Promise<Buffer | undefined> {
  try {
    return await source.read(path);
  } catch (err) {
    found.push(diag('BUNDLE_UNREADABLE', `cannot read: ${errnoCode(err) ?? String(err)}`, { file }));
    return undefined;
  }
}

/** What a pinned folder declares itself to be, read from its manifest or its SKILL.md. */
export interface Declared {
  /** The declared skill_id and skill_version (null when absent or not a string). */
  readonly identity?: { readonly skill_id: unknown; readonly skill_version: unknown };
  /** The file the identity was read from, for messages. */
  readonly file?: string;
  /** The manifest digest recomputed from the files (for a SKILL.md folder, of its derived manifest). */
  readonly manifestDigest?: Sha256Digest;
  /** The manifest's data, for a manifest bundle whose manifest parsed. */
  readonly manifest?: Record<string, unknown>;
}

/** A manifest bundle: the manifest parses, and its own digests agree with the files. */
export async function declaredByManifest(source: BundleSource, files: readonly BundleFile[], content: Sha256Digest | undefined, label: string, found: Diagnostic[]): Promise<Declared> {
  const manifests = files.filter((f) => (MANIFEST_NAMES as readonly string[]).includes(f.path));
  if (manifests.length !== 1) {
    found.push(
      manifests.length === 0
        ? diag('BUNDLE_NO_MANIFEST', 'no skill.yaml or skill.json at the bundle root', { file: label })
        : diag('BUNDLE_AMBIGUOUS_MANIFEST', 'both skill.yaml and skill.json exist; keep exactly one', { file: label }),
    );
    return {};
  }
  const name = (manifests[0] as BundleFile).path;
  const file = `${label}/${name}`;
  const bytes = await readOr(source, name, file, found);
  if (bytes === undefined) return {};
  const doc = parseDocumentBytes(bytes, formatOf(name));
  pushAll(found, doc.diagnostics.map((d) => ({ ...d, file })));
  if (doc.data === undefined) return {};
  const data = doc.data as Record<string, unknown>;
  const digest = computeManifestDigest(data);
  const manifestDigest = digest.value;
  pushAll(found, digest.diagnostics.map((d) => ({ ...d, file })));
  if (manifestDigest !== undefined && data.manifest_digest !== manifestDigest) {
    found.push(diag('MANIFEST_DIGEST_MISMATCH', `manifest_digest is ${String(data.manifest_digest)} but the manifest hashes to ${manifestDigest}`, { file, pointer: '/manifest_digest', ...doc.locate('/manifest_digest') }));
  }
  if (content !== undefined && data.content_digest !== undefined && data.content_digest !== content) {
    found.push(diag('CONTENT_DIGEST_MISMATCH', `content_digest is ${String(data.content_digest)} but the bundle's files hash to ${content}`, { file, pointer: '/content_digest', ...doc.locate('/content_digest') }));
  }
  return { identity: { skill_id: data.skill_id, skill_version: data.skill_version }, file, ...(manifestDigest !== undefined ? { manifestDigest } : {}), manifest: data };
}

/**
 * An Agent Skills folder: SKILL.md parses, and its name and metadata.version are the identity.
 * Only what the identity needs is read; the folder was validated in full when it was pinned, and
 * every byte of it is pinned by files_digest.
 */
export async function declaredBySkillMd(source: BundleSource, files: readonly BundleFile[], content: Sha256Digest | undefined, label: string, found: Diagnostic[]): Promise<Declared> {
  const name = SKILL_MD_NAMES.find((n) => files.some((f) => f.path === n));
  if (name === undefined) {
    found.push(diag('AGENT_SKILL_MD_MISSING', 'the pinned Agent Skills folder has no SKILL.md', { file: label }));
    return {};
  }
  const file = `${label}/${name}`;
  const bytes = await readOr(source, name, file, found);
  if (bytes === undefined) return {};
  const doc = parseSkillMd(bytes);
  pushAll(found, doc.diagnostics.map((d) => ({ ...d, file })));
  const props = toProperties(doc);
  const version = agentSkillVersion(props);
  const identity = { skill_id: props?.name, skill_version: version };
  if (props === undefined || version === undefined || content === undefined) return { identity, file };
  return { identity, file, manifestDigest: agentSkillManifestDigest(props.name, version, content) };
}
