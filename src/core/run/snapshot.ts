/**
 * Build-time validation results of the default bundle shipped with skillctl. Reading a manifest
 * means parsing YAML with source positions, which costs a cold process ~10 ms: more than the rest
 * of `skillctl run` of a built-in together. The build validates each default bundle once and
 * records the result with the sha256 of the manifest's bytes; at run time a bundle whose manifest
 * has exactly those bytes, and whose files still hash to the recorded content_digest, gets that
 * result without parsing. Validation is a function of those two inputs only, so the result is the
 * one `validateBundle` would return; any other bundle is validated in full.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { computeContent, dirSource } from '../bundle/index.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../digest/index.js';
import { findManifest, validateBundle, type Manifest } from '../manifest/index.js';

export interface BundleSnapshot {
  /** `skill.yaml` or `skill.json`. */
  readonly manifest_file: string;
  /** sha256 of the manifest file's bytes. */
  readonly manifest_sha256: string;
  readonly manifest_digest: string;
  readonly content_digest: string;
  readonly manifest: Manifest;
  /** The validation's findings (none is an error: only valid bundles are recorded). */
  readonly diagnostics: readonly Diagnostic[];
}

/** skill_id → snapshot of manifests/default/<skill_id>. */
export type BundleSnapshots = Readonly<Record<string, BundleSnapshot>>;

/** Validates `dir` in full and records the result; undefined when the bundle is not valid. */
export async function snapshotBundle(dir: string, label: string): Promise<BundleSnapshot | undefined> {
  const found = await findManifest(dir);
  if ('diagnostic' in found) return undefined;
  const v = await validateBundle(dir, label);
  const { manifest: m, content } = v.digests;
  if (v.manifest === undefined || hasErrors(v.diagnostics) || m.computed === undefined || content.computed === undefined) return undefined;
  return {
    manifest_file: found.path.slice(dir.length + 1),
    manifest_sha256: sha256(await readFile(found.path)),
    manifest_digest: m.computed,
    content_digest: content.computed,
    manifest: v.manifest,
    diagnostics: v.diagnostics,
  };
}

/** The snapshot, if `dir` still holds exactly the bundle it was taken of. */
export async function matchSnapshot(dir: string, snap: BundleSnapshot): Promise<BundleSnapshot | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, snap.manifest_file));
  } catch {
    return undefined;
  }
  if (sha256(bytes) !== snap.manifest_sha256) return undefined;
  // Only one manifest may exist: a second one would make the bundle ambiguous.
  const found = await findManifest(dir);
  if ('diagnostic' in found || found.path !== join(dir, snap.manifest_file)) return undefined;
  const content = await computeContent(dirSource(dir));
  return content.complete && content.diagnostics.length === 0 && content.digest === snap.content_digest ? snap : undefined;
}
