/**
 * Computing a pin for one target, without writing anything: the skill folder (or archive) is
 * validated in full as its kind (manifest bundle or SKILL.md folder), as `validate` does, and
 * refused when invalid; signatures are added in memory; the
 * digests are those of the files as they will be once the new signatures.json is written.
 */
import { mcpPinOrigin, type Origins } from '../mcp-skills/index.js';
import { basename } from 'node:path';
import { dirSource, hashFiles, listAndHash, openArchive, type BundleSource } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, treeDigest, type Sha256Digest, type TreeFile } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import {
  checkSignatures,
  loadSignatures,
  renderSignatures,
  signaturesUncovered,
  signDigest,
  upsertSignature,
  type PublicKey,
  type SecretKey,
  type SignaturesDoc,
} from '../sign/index.js';
import { checkSkillDir, checkSkillSource, type SkillCheck } from '../skill-gate/index.js';
import type { PackPin, SkillPin } from './model.js';
import { readPackFile } from './pack-doc.js';
import { resolveInside, sourcePath } from './paths.js';
import type { PinTarget } from './targets.js';
import { pushAll } from '../findings.js';

export interface Signing {
  readonly signer: string;
  readonly key: SecretKey;
}

export interface PreparedSkill {
  readonly kind: 'skill';
  readonly entry: SkillPin;
  /** Distinct public keys behind the valid signatures. */
  readonly distinctKeys: number;
  /** signatures.json to write (absolute path and text), when signing changed it. */
  readonly write?: { readonly path: string; readonly text: string };
}

export interface PreparedPack {
  readonly kind: 'pack';
  readonly entry: PackPin;
}

export type Prepared = PreparedSkill | PreparedPack;

export interface PrepareContext {
  readonly root: string;
  readonly keys: ReadonlyMap<string, PublicKey>;
  readonly signing: readonly Signing[];
  /** Where pulled skill folders came from (`skillctl pull`), by folder relative to `root`. */
  readonly origins?: Origins;
}

/**
 * Validates the target as its kind: a folder on disk, or an archive read into memory. A folder is
 * resolved once, inside the project (as verify-pins resolves it), and opened there without
 * following a link: one swapped in since is refused (BUNDLE_ROOT_CHANGED), never walked. It is
 * walked once, each file read once, and the source returned is that walk: what the pin records
 * is what was validated.
 */
async function validateSource(ctx: PrepareContext, target: PinTarget, abs: string): Promise<{ check: SkillCheck; source: BundleSource; archiveDigest?: Sha256Digest } | Diagnostic> {
  if (target.kind === 'bundle') {
    const where = await resolveInside(ctx.root, abs);
    if (where?.escapes === true) return diag('PIN_SOURCE_INVALID', `${target.source} resolves outside the project through a symbolic link`, { file: target.source });
    const dir = where?.real ?? abs;
    const source = dirSource(dir, undefined, undefined, { followRoot: where === undefined });
    return { check: await checkSkillDir(dir, target.source, { source, dirName: basename(abs) }), source };
  }
  const archive = await openArchive(abs, undefined, target.source);
  const listing = await archive.list();
  return { check: await checkSkillSource(archive, target.source, { listing }), source: archive, archiveDigest: archive.archiveDigest };
}

async function existingSignatures(source: BundleSource, present: boolean, file: string): Promise<{ doc?: SignaturesDoc; diagnostics: Diagnostic[] }> {
  if (!present) return { diagnostics: [] };
  return loadSignatures(await source.read('signatures.json'), file);
}

async function prepareSkill(ctx: PrepareContext, target: PinTarget, found: Diagnostic[]): Promise<PreparedSkill | undefined> {
  const abs = sourcePath(ctx.root, target.source);
  const opened = await validateSource(ctx, target, abs);
  if ('code' in opened) {
    found.push(opened);
    return undefined;
  }
  const { check: validated, source, archiveDigest } = opened;
  pushAll(found, validated.diagnostics);
  const id = validated.identity;
  if (!validated.ok || id === undefined) {
    if (!hasErrors(found)) found.push(diag('BUNDLE_UNREADABLE', 'the bundle could not be read in full', { file: target.source }));
    return undefined;
  }
  // Signatures cover the manifest digest (for a SKILL.md folder, that of its derived manifest).
  const digest = id.manifest_digest;
  // A folder's: the validation's own walk, not a second one (the files and digests below are
  // those it checked). An archive is held in memory: listing it again reads nothing anew.
  const { listing } = target.kind === 'bundle' ? await listAndHash(source) : { listing: await source.list() };
  const sigFile = `${target.source}/signatures.json`;
  const present = listing.files.some((f) => f.path === 'signatures.json');
  const loaded = await existingSignatures(source, present, sigFile);
  pushAll(found, loaded.diagnostics);
  if (loaded.diagnostics.length > 0) return undefined;
  let doc = loaded.doc;
  if (validated.kind === 'bundle' && 'digests' in validated.validation && validated.validation.digests.content.declared === undefined && (ctx.signing.length > 0 || (doc?.signatures.length ?? 0) > 0)) {
    found.push(signaturesUncovered(validated.validation.file));
    return undefined;
  }
  let write: PreparedSkill['write'];
  if (ctx.signing.length > 0) {
    if (target.kind === 'archive') {
      found.push(diag('USAGE', 'an archive cannot be signed in place; sign the bundle directory, then pack it', { file: target.source }));
      return undefined;
    }
    for (const s of ctx.signing) {
      const known = ctx.keys.get(s.signer);
      if (known === undefined || known.base64 !== s.key.publicKey) {
        found.push(
          diag('SIGNER_UNKNOWN', known === undefined ? `${s.signer} has no key in the public-keys file` : `the public key of ${s.signer} in the public-keys file does not belong to this secret key`, {
            hint: `skillctl keygen --signer ${s.signer} adds a key pair`,
          }),
        );
        return undefined;
      }
      doc = upsertSignature(doc, digest, { signer: s.signer, algorithm: 'ed25519', signature: signDigest(s.key, digest) });
    }
    write = { path: `${abs}/signatures.json`, text: renderSignatures(doc as SignaturesDoc) };
  }
  // Pinning records the signers whose signatures verify; any signature that does not is refused.
  const check = await checkSignatures(doc, { digest, keys: ctx.keys, minSigners: 0, file: sigFile });
  pushAll(found, check.diagnostics);
  if (hasErrors(check.diagnostics)) return undefined;

  const others = listing.files.filter((f) => f.path !== 'signatures.json');
  const hashed = await hashFiles(source, others);
  pushAll(found, hashed.diagnostics.map((d) => ({ ...d, file: `${target.source}/${d.file ?? ''}` })));
  if (hasErrors(hashed.diagnostics)) return undefined;
  const all: TreeFile[] = [...hashed.files];
  if (write !== undefined) {
    const bytes = Buffer.from(write.text, 'utf8');
    const old = listing.files.find((f) => f.path === 'signatures.json');
    all.push({ path: 'signatures.json', size: bytes.length, mode: old?.mode ?? '0644', digest: sha256(bytes) });
  } else if (present) {
    const sig = listing.files.find((f) => f.path === 'signatures.json') as TreeFile;
    all.push({ path: sig.path, size: sig.size, mode: sig.mode, digest: await source.digest('signatures.json') });
  }
  // A pulled folder's pin binds to the resource set it was pulled as (core/mcp-skills/pin-origin.ts).
  const pulled = target.kind === 'bundle' ? mcpPinOrigin(ctx.origins?.[target.source], hashed.files, target.source) : { diagnostics: [] };
  pushAll(found, pulled.diagnostics);
  const entry: SkillPin = {
    ...(validated.kind === 'agent-skill' ? { kind: 'agent-skill' as const } : {}),
    skill_id: id.skill_id,
    skill_version: id.skill_version,
    source: target.source,
    manifest_digest: digest,
    content_digest: id.content_digest,
    files_digest: treeDigest(all),
    ...(archiveDigest !== undefined ? { archive_digest: archiveDigest } : {}),
    signers: [...check.valid],
    ...(pulled.origin !== undefined ? { origin: pulled.origin } : {}),
  };
  return { kind: 'skill', entry, distinctKeys: check.distinctKeys, ...(write !== undefined ? { write } : {}) };
}

/** Packs are pinned by digest only; `--sign` applies to the skill bundles pinned alongside. */
async function preparePack(ctx: PrepareContext, target: PinTarget, found: Diagnostic[]): Promise<PreparedPack | undefined> {
  const doc = await readPackFile(sourcePath(ctx.root, target.source), target.source);
  if (doc === undefined) {
    found.push(diag('INPUT_NOT_FOUND', `${target.source} does not exist`, { file: target.source }));
    return undefined;
  }
  pushAll(found, doc.diagnostics);
  if (hasErrors(doc.diagnostics) || doc.profile === undefined || doc.skill_pack_version === undefined || doc.pack_digest === undefined || doc.file_digest === undefined) return undefined;
  return {
    kind: 'pack',
    entry: { profile: doc.profile, skill_pack_version: doc.skill_pack_version, source: target.source, pack_digest: doc.pack_digest, file_digest: doc.file_digest },
  };
}

/** Computes the pin of one target. Undefined (with findings) when it cannot be pinned. */
export async function preparePin(ctx: PrepareContext, target: PinTarget): Promise<{ prepared?: Prepared; diagnostics: Diagnostic[] }> {
  const found: Diagnostic[] = [];
  try {
    const prepared = target.kind === 'pack' ? await preparePack(ctx, target, found) : await prepareSkill(ctx, target, found);
    return { ...(prepared !== undefined ? { prepared } : {}), diagnostics: found };
  } catch (err) {
    const code = errnoCode(err);
    if (code === undefined) throw err;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${target.source}: ${code}`, { cause: err });
  }
}
