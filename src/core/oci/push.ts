/**
 * `push`: a skill to a registry. The layer is the byte-reproducible archive `pack` writes (so the
 * layer digest is the archive digest a lock pins), the config says what the skill is, and the
 * manifest has no clock in it: one source always gives one manifest digest. Blobs the registry
 * has are not sent again; the manifest goes last, so a tag never names a manifest whose blobs
 * are missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { readInputFile } from '../fs/index.js';
import { packFolder } from '../pack/index.js';
import { checkSkillArchive, type SkillCheck } from '../skill-gate/index.js';
import type { SecretKey } from '../sign/index.js';
import { buildArtifact, OCI_MANIFEST, type Descriptor, type SkillConfig } from './artifact.js';
import { RegistryClient } from './client.js';
import { formatOciReference, manifestRef, type OciReference } from './reference.js';
import { pushSignature, type PushedSignature } from './signature.js';
import type { TransportOptions } from './transport.js';

export interface PushRequest {
  /** A skill folder or an archive `pack` wrote (absolute). */
  readonly source: string;
  /** How to name the source in findings. */
  readonly label: string;
  readonly ref: OciReference;
  readonly transport: TransportOptions;
  /** A directory for the scratch archive of a folder (removed again). */
  readonly tmpDir: string;
  /** Blobs larger than this are uploaded in chunks of this size (default 8 MiB). */
  readonly chunkBytes?: number;
  /** Sign the manifest digest and attach the signature as a referrer. */
  readonly sign?: { readonly key: SecretKey; readonly signer: string };
}

export interface PushResult {
  readonly ok: boolean;
  /** `oci://registry/repo[:tag]@sha256:…`, when pushed. */
  readonly reference?: string;
  readonly digest?: Sha256Digest;
  readonly config?: SkillConfig;
  readonly layer?: Descriptor;
  /** Which blobs were sent (false: the registry had it). */
  readonly uploaded?: { readonly config: boolean; readonly layer: boolean };
  readonly signature?: PushedSignature;
  readonly diagnostics: readonly Diagnostic[];
}

interface Packed {
  readonly check: SkillCheck | undefined;
  readonly bytes?: Buffer;
  readonly name?: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** The archive's bytes: a folder packed into a scratch directory, or an archive file checked as `run ARCHIVE` checks it. */
async function archiveOf(req: PushRequest): Promise<Packed & { description?: string }> {
  if (/\.tgz$/i.test(req.source)) {
    const check = await checkSkillArchive(req.source, req.label);
    if (!check.ok) return { check, diagnostics: check.diagnostics };
    const bytes = await readInputFile(req.source, req.label, { maxBytes: 512 * 1024 * 1024 });
    return { check, bytes, name: basename(req.source), diagnostics: check.diagnostics, ...description(check) };
  }
  const scratch = await mkdtemp(join(req.tmpDir, 'skillctl-push-'));
  try {
    const packed = await packFolder(req.source, scratch, { label: req.label, outLabel: 'a scratch directory' });
    if (!packed.ok || packed.archive === undefined) return { check: undefined, diagnostics: packed.diagnostics };
    const bytes = await readInputFile(packed.archive, packed.archive, { maxBytes: 512 * 1024 * 1024 });
    const check = await checkSkillArchive(packed.archive, req.label);
    return { check, bytes, name: basename(packed.archive), diagnostics: packed.diagnostics, ...description(check) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function description(check: SkillCheck): { description?: string } {
  const v = check.validation;
  return 'kind' in v && v.properties !== undefined ? { description: v.properties.description } : {};
}

export async function pushSkill(req: PushRequest): Promise<PushResult> {
  const packed = await archiveOf(req);
  const identity = packed.check?.identity;
  if (packed.bytes === undefined || identity === undefined || packed.check?.kind === undefined || hasErrors(packed.diagnostics)) {
    return { ok: false, diagnostics: packed.diagnostics };
  }
  const config: SkillConfig = {
    kind: packed.check.kind,
    id: identity.skill_id,
    version: identity.skill_version,
    ...(packed.description !== undefined ? { description: packed.description } : {}),
    manifest_digest: identity.manifest_digest,
    content_digest: identity.content_digest,
  };
  const built = buildArtifact(config, packed.bytes, packed.name as string);
  const client = new RegistryClient(req.ref, req.transport);
  const layerSent = await client.uploadBlob(packed.bytes, built.layerDescriptor.digest, req.chunkBytes);
  const configSent = await client.uploadBlob(built.config, built.configDescriptor.digest, req.chunkBytes);
  // By tag when one was given; else by digest, which names the manifest without a tag.
  await client.putManifest(req.ref.digest === undefined ? manifestRef(req.ref) : built.digest, built.manifest, OCI_MANIFEST);
  const signature = req.sign !== undefined ? await pushSignature(client, { mediaType: OCI_MANIFEST, digest: built.digest, size: built.manifest.length }, req.sign) : undefined;
  return {
    ok: true,
    reference: formatOciReference({ ...req.ref, digest: built.digest }),
    digest: built.digest,
    config,
    layer: built.layerDescriptor,
    uploaded: { config: configSent, layer: layerSent },
    ...(signature !== undefined ? { signature } : {}),
    diagnostics: packed.diagnostics,
  };
}
