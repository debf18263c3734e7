/**
 * `push`: a skill to a registry. The layer is the byte-reproducible archive `pack` writes (so the
 * layer digest is the archive digest a lock pins), the config says what the skill is, and the
 * manifest has no clock in it: one source always gives one manifest digest. Blobs the registry
 * has are not sent again; the manifest goes last, so a tag never names a manifest whose blobs
 * are missing.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { filePieces, streamedArchiveBounds } from '../archive/index.js';
import { unpackTgzFile, type UnpackedArchive } from '../bundle/index.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode, isSkillctlError, SkillctlError } from '../errors.js';
import { openRegularFile } from '../fs/index.js';
import { packFolder } from '../pack/index.js';
import { checkSkillSource, type SkillCheck } from '../skill-gate/index.js';
import type { SecretKey } from '../sign/index.js';
import { buildArtifact, OCI_MANIFEST, type Descriptor, type SkillConfig } from './artifact.js';
import type { StagedUpload } from './blob-upload.js';
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
  /**
   * Upload the layer in chunks of this size. Without it the layer goes in one request whose
   * body streams from the file, and in chunks of 8 MiB only where the registry refuses that.
   */
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
  /** The archive file, its digest and size (hashed as it was read), when it passed. */
  readonly archive?: { readonly path: string; readonly digest: Sha256Digest; readonly size: number };
  /** The layer, sent while the archive was checked and not yet committed, when it passed. */
  readonly staged?: StagedUpload;
  readonly diagnostics: readonly Diagnostic[];
}

/** Starts sending the archive at `path` (`size` bytes, hashed to `digest`) without committing it; `signal` gives the sending up. */
type Stage = (path: string, size: number, digest: Sha256Digest, signal: AbortSignal) => Promise<StagedUpload>;

/**
 * The archive to push, checked as `run ARCHIVE` checks one but streamed (never held whole):
 * unpacked through the guarded tar walk into a scratch folder, hashed as it is read, and the skill
 * validated there. A folder is packed into the scratch folder first. While the archive is
 * checked, `stage` sends it (the upload overlaps the check); a refused archive's upload is
 * cancelled, never committed. `use` runs while the archive is still there; the scratch folder is
 * removed after.
 */
async function withArchive<T>(req: PushRequest, stage: Stage, use: (packed: Packed & { description?: string }) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(req.tmpDir, 'skillctl-push-'));
  try {
    let path = req.source;
    // A folder's findings are those of its pack (the archive then only confirms them).
    let packedDiagnostics: readonly Diagnostic[] | undefined;
    if (!/\.tgz$/i.test(req.source)) {
      const packed = await packFolder(req.source, scratch, { label: req.label, outLabel: 'a scratch directory' });
      if (!packed.ok || packed.archive === undefined) return await use({ check: undefined, diagnostics: packed.diagnostics });
      path = packed.archive;
      packedDiagnostics = packed.diagnostics;
    }
    // Hashed first, on its own (the registry is asked whether it has the blob), then sent while
    // it is checked: hashing beside the unpacking delayed the upload by most of the check.
    const { size, digest } = await hashArchive(path, req.label);
    const sending = new AbortController();
    const staging = stage(path, size, digest, sending.signal);
    // Awaited only after the check: a failure meanwhile must not count as unhandled.
    staging.catch(() => undefined);
    let checked: { source: UnpackedArchive; check: SkillCheck };
    try {
      const source = await unpackTgzFile(path, join(scratch, 'unpacked'), streamedArchiveBounds(size), req.label);
      checked = { source, check: await checkSkillSource(source, req.label) };
    } catch (err) {
      await giveUp(staging, sending);
      throw err;
    }
    const { source, check } = checked;
    const diagnostics = packedDiagnostics ?? check.diagnostics;
    if (!check.ok) {
      await giveUp(staging, sending);
      return await use({ check, diagnostics: check.diagnostics });
    }
    const staged = await staging;
    // The bytes checked are not the bytes hashed for the upload: the file changed in between.
    // (The registry refuses a commit whose bytes do not hash to the digest, so what it was sent
    // cannot differ from what was checked unnoticed either.)
    if (digest !== source.archiveDigest) {
      await staged.cancel();
      throw new SkillctlError('INPUT_UNREADABLE', `${req.label} changed while it was pushed (hashed to ${digest}, then to ${source.archiveDigest})`);
    }
    const archive = { path, digest: source.archiveDigest, size: source.archiveSize };
    return await use({ check, archive, staged, diagnostics, ...description(check) });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * An upload staged for an archive that is refused: the send still in flight is stopped at once
 * (it would otherwise go on until the whole archive was sent, or until the idle timer, before
 * the findings were reported), which cancels its session; a send that had finished is cancelled
 * here. Its own failure no longer matters.
 */
async function giveUp(staging: Promise<StagedUpload>, sending: AbortController): Promise<void> {
  sending.abort();
  const staged = await staging.catch(() => undefined);
  await staged?.cancel();
}

/**
 * The archive file's size and sha256, with the codes `run ARCHIVE` gives: a missing or
 * unreadable file, or one that is not a regular file (opened without blocking, so a FIFO put in
 * its place is refused, not waited on).
 */
async function hashArchive(path: string, label: string): Promise<{ size: number; digest: Sha256Digest }> {
  const { fh, size } = await openRegularFile(path, label);
  try {
    const hash = createHash('sha256');
    for await (const piece of filePieces(fh, size, label)) hash.update(piece);
    return { size, digest: `sha256:${hash.digest('hex')}` };
  } catch (err) {
    if (isSkillctlError(err)) throw err;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${label}: ${errnoCode(err) ?? String(err)}`, { cause: err });
  } finally {
    await fh.close();
  }
}

function description(check: SkillCheck): { description?: string } {
  const v = check.validation;
  return 'kind' in v && v.properties !== undefined ? { description: v.properties.description } : {};
}

export async function pushSkill(req: PushRequest): Promise<PushResult> {
  const client = new RegistryClient(req.ref, req.transport);
  const stage: Stage = (path, size, digest, signal) => client.stageBlobFile(path, size, digest, req.chunkBytes, signal);
  return withArchive(req, stage, async (packed) => {
    const identity = packed.check?.identity;
    if (packed.archive === undefined || packed.staged === undefined || identity === undefined || packed.check?.kind === undefined || hasErrors(packed.diagnostics)) {
      await packed.staged?.cancel();
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
    const { archive } = packed;
    // The layer's title is the name pack gives the archive, never the file's own: the same skill
    // pushed from its folder or from its archive under any name is one manifest digest.
    const built = buildArtifact(config, archive, `${config.id}-${config.version}.tgz`);
    // The layer is committed only now that the archive passed, the config sent beside it (both
    // must be there before the manifest, in either order); the manifest last.
    const [layer, configSent] = await Promise.all([packed.staged.commit(), client.uploadBlob(built.config, built.configDescriptor.digest, req.chunkBytes)]);
    const layerSent = layer !== false;
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
  });
}
