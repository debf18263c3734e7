/**
 * A skill as an OCI artifact (image manifest v1.1): the media types, the config document and the
 * manifest skillctl writes, and the reading of a manifest a registry sent, which is untrusted: it
 * is converted once into `SkillArtifact`, and everything after sees only that.
 *
 * The media types are those the Agent Skills OCI proposals use (docs/formats/oci.md); no
 * published standard names others. Manifests and configs are RFC 8785 canonical JSON with no
 * clock in them, so one source always gives one manifest digest.
 */
import { canonicalize, isSha256Digest, sha256, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN, SKILL_VERSION_PATTERN } from '../manifest/index.js';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';
export const SKILL_ARTIFACT = 'application/vnd.cncf.skill.manifest.v1+json';
export const SKILL_CONFIG = 'application/vnd.cncf.skill.config.v1+json';
export const SKILL_BUNDLE = 'application/vnd.cncf.skill.bundle.v1.tar+gzip';
export const SKILL_SIGNATURE = 'application/vnd.cncf.skill.signature.v1+json';

/** distribution's own bound on a manifest PUT; a larger one is refused before it is read whole. */
export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
/** A config or a signature document: small JSON, bounded. */
export const SMALL_BLOB_MAX_BYTES = 1024 * 1024;

export interface Descriptor {
  readonly mediaType: string;
  readonly digest: Sha256Digest;
  readonly size: number;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly artifactType?: string;
}

/** What the config blob says about the skill (docs/formats/oci.md). */
export interface SkillConfig {
  readonly kind: 'bundle' | 'agent-skill';
  readonly id: string;
  readonly version: string;
  readonly description?: string;
  readonly manifest_digest: Sha256Digest;
  readonly content_digest: Sha256Digest;
}

export interface BuiltArtifact {
  readonly config: Buffer;
  readonly configDescriptor: Descriptor;
  readonly layerDescriptor: Descriptor;
  readonly manifest: Buffer;
  readonly digest: Sha256Digest;
}

function descriptor(mediaType: string, bytes: Buffer, annotations?: Record<string, string>): Descriptor {
  return { mediaType, digest: sha256(bytes), size: bytes.length, ...(annotations !== undefined ? { annotations } : {}) };
}

/**
 * The config, the layer's descriptor and the manifest for an archive and what it holds. The
 * archive is its bytes, or its digest and size when it stays in a file.
 */
export function buildArtifact(config: SkillConfig, archive: Buffer | { readonly digest: Sha256Digest; readonly size: number }, archiveName: string): BuiltArtifact {
  const configBytes = Buffer.from(canonicalize(config), 'utf8');
  const configDescriptor = descriptor(SKILL_CONFIG, configBytes);
  const title = { 'org.opencontainers.image.title': archiveName };
  const layerDescriptor = Buffer.isBuffer(archive) ? descriptor(SKILL_BUNDLE, archive, title) : { mediaType: SKILL_BUNDLE, digest: archive.digest, size: archive.size, annotations: title };
  const annotations: Record<string, string> = {
    'org.opencontainers.image.title': config.id,
    'org.opencontainers.image.version': config.version,
  };
  if (config.description !== undefined) annotations['org.opencontainers.image.description'] = config.description;
  const manifest = Buffer.from(
    canonicalize({ schemaVersion: 2, mediaType: OCI_MANIFEST, artifactType: SKILL_ARTIFACT, config: configDescriptor, layers: [layerDescriptor], annotations }),
    'utf8',
  );
  return { config: configBytes, configDescriptor, layerDescriptor, manifest, digest: sha256(manifest) };
}

/** A skill manifest as read from a registry, checked. */
export interface SkillArtifact {
  readonly config: Descriptor;
  readonly layer: Descriptor;
  readonly annotations: Readonly<Record<string, string>>;
}

const invalid = (what: string, why: string): SkillctlError => new SkillctlError('OCI_MANIFEST_INVALID', `${what}: ${why}`);

/** A descriptor from untrusted JSON: a sha256 digest and a safe integer size, or refused. */
export function toDescriptor(value: unknown, what: string): Descriptor {
  if (typeof value !== 'object' || value === null) throw invalid(what, 'a descriptor is not an object');
  const d = value as Record<string, unknown>;
  if (typeof d.mediaType !== 'string') throw invalid(what, 'a descriptor has no mediaType');
  if (!isSha256Digest(d.digest)) throw new SkillctlError('OCI_MEDIA_TYPE_UNSUPPORTED', `${what}: a descriptor's digest ${String(d.digest).slice(0, 80)} is not sha256:<hex>`);
  if (typeof d.size !== 'number' || !Number.isSafeInteger(d.size) || d.size < 0) throw invalid(what, 'a descriptor has no valid size');
  const annotations = typeof d.annotations === 'object' && d.annotations !== null ? stringRecord(d.annotations) : undefined;
  return {
    mediaType: d.mediaType,
    digest: d.digest,
    size: d.size,
    ...(annotations !== undefined ? { annotations } : {}),
    ...(typeof d.artifactType === 'string' ? { artifactType: d.artifactType } : {}),
  };
}

function stringRecord(value: object): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function parseJson(bytes: Buffer, what: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid(what, 'not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid(what, 'not a JSON object');
  return doc as Record<string, unknown>;
}

/**
 * Reads a manifest a registry sent as a skill artifact: an OCI image manifest whose artifact type
 * (or, from a client that sets none, config media type) is the skill's, with exactly one layer of
 * the bundle media type. Anything else is refused by media type, before any blob is fetched.
 */
export function toSkillArtifact(bytes: Buffer, contentType: string | undefined, what: string): SkillArtifact {
  const doc = parseJson(bytes, what);
  const mediaType = typeof doc.mediaType === 'string' ? doc.mediaType : contentType?.split(';')[0]?.trim();
  if (mediaType !== OCI_MANIFEST) throw new SkillctlError('OCI_MEDIA_TYPE_UNSUPPORTED', `${what} is ${mediaType ?? 'of no media type'}, not an OCI image manifest (${OCI_MANIFEST})`);
  if (doc.schemaVersion !== 2) throw invalid(what, 'schemaVersion is not 2');
  const config = toDescriptor(doc.config, what);
  const artifactType = typeof doc.artifactType === 'string' ? doc.artifactType : config.mediaType;
  if (artifactType !== SKILL_ARTIFACT && artifactType !== SKILL_CONFIG) {
    throw new SkillctlError('OCI_MEDIA_TYPE_UNSUPPORTED', `${what} is an artifact of type ${artifactType}, not a skill (${SKILL_ARTIFACT})`);
  }
  if (config.mediaType !== SKILL_CONFIG) throw new SkillctlError('OCI_MEDIA_TYPE_UNSUPPORTED', `${what}: its config is ${config.mediaType}, not ${SKILL_CONFIG}`);
  if (!Array.isArray(doc.layers) || doc.layers.length !== 1) throw invalid(what, 'a skill artifact has exactly one layer');
  const layer = toDescriptor(doc.layers[0], what);
  if (layer.mediaType !== SKILL_BUNDLE) throw new SkillctlError('OCI_MEDIA_TYPE_UNSUPPORTED', `${what}: its layer is ${layer.mediaType}, not ${SKILL_BUNDLE}`);
  const annotations = typeof doc.annotations === 'object' && doc.annotations !== null ? stringRecord(doc.annotations) : {};
  return { config, layer, annotations };
}

/** The config blob, read: only the fields the docs name, each checked. */
export function toSkillConfig(bytes: Buffer, what: string): SkillConfig {
  const doc = parseJson(bytes, what);
  const str = (k: string): string => {
    const v = doc[k];
    if (typeof v !== 'string' || v === '') throw invalid(what, `${k} is not a string`);
    return v;
  };
  const kind = str('kind');
  if (kind !== 'bundle' && kind !== 'agent-skill') throw invalid(what, `kind ${kind} is neither bundle nor agent-skill`);
  const manifest = str('manifest_digest');
  const content = str('content_digest');
  if (!isSha256Digest(manifest) || !isSha256Digest(content)) throw invalid(what, 'a digest is not sha256:<hex>');
  // The id and version are the publisher's, and name files: run's scratch archive was once
  // `<id>-<version>.tgz`, and a version `1/../../x` put it (and the directory removed with it)
  // anywhere. Only what a lock may record is taken: a skill_id and a semantic version, neither of
  // which can hold a `/`, a `..` segment or a leading `.`.
  const id = str('id');
  if (id.length > SKILL_ID_MAX_LENGTH || !SKILL_ID_PATTERN.test(id)) throw invalid(what, `id ${JSON.stringify(id.slice(0, 80))} is not a skill id (${SKILL_ID_PATTERN.source})`);
  const version = str('version');
  if (!SKILL_VERSION_PATTERN.test(version)) throw invalid(what, `version ${JSON.stringify(version.slice(0, 80))} is not a semantic version`);
  return { kind, id, version, ...(typeof doc.description === 'string' ? { description: doc.description } : {}), manifest_digest: manifest, content_digest: content };
}
