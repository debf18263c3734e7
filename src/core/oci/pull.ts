/**
 * `pull`: a skill from a registry into a folder. Fixed steps: manifest (by digest from the cache
 * when it is there, hashed as read; else fetched, bounded and hashed), media types, config, signers
 * when asked; by digest, a folder that already holds exactly the files of the cached layer (listed
 * in memory, not unpacked) ends the pull there; else the layer: from the cache (re-hashed) or streamed from the registry, its
 * pieces counted, hashed and written to the cache's scratch file as they arrive and at the same
 * time inflated through the guarded tar walk of `run ARCHIVE` into a scratch folder beside the
 * destination (never held whole in memory; each file hashed as it is written). The unpacked
 * folder is looked at only after the whole layer matched its digest (and the layer is renamed
 * into the cache only then); the skill is validated there as its kind, and only then is the
 * folder renamed into place: a failed pull leaves the destination as it was.
 */
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { streamedArchiveBounds, unsafeArchivePath } from '../archive/index.js';
import { opensAsLock, unpackTgz, unpackTgzFile } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { isSha256Digest, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { entryExists, makeDirs, refuseLinkedDefault, removeMadeDirs } from '../fs/index.js';
import { checkSkillDir, checkSkillSource, type SkillIdentity, type SkillKind } from '../skill-gate/index.js';
import type { PublicKey } from '../sign/index.js';
import type { SkillConfig } from './artifact.js';
import type { BlobCache } from './cache.js';
import { RegistryClient } from './client.js';
import { formatOciReference, type OciReference } from './reference.js';
import { trustedSigners } from './signature.js';
import type { TransportOptions } from './transport.js';
import { cachedHead, openArtifact, withCachedLayer, type FetchedArtifact, type StreamingArtifact } from './fetch-artifact.js';
import { cachedLayerFiles, holdsExactly, placedFiles, type PlacedFile } from './placed-files.js';

export interface PullRequest {
  readonly ref: OciReference;
  readonly transport: TransportOptions;
  readonly cache: BlobCache;
  /** The project root: default destinations are under it. */
  readonly root: string;
  /** The folder the skill's own folder is made in (default: `.agents/skills` or `skills` under root). */
  readonly outDir?: string;
  /** Replace an existing folder that holds other content. */
  readonly force?: boolean;
  /** Refuse unless this many distinct trusted keys signed the manifest (default 0). */
  readonly minSigners?: number;
  readonly keys?: ReadonlyMap<string, PublicKey>;
  /** Called once when a layer will be read (from the registry or the cache): not for a pull answered `unchanged` from the cache. */
  readonly beforeTransfer?: () => void;
}

export interface PullResult {
  readonly ok: boolean;
  /** `oci://registry/repo[:tag]@sha256:…`. */
  readonly reference?: string;
  readonly digest?: Sha256Digest;
  readonly config?: SkillConfig;
  readonly kind?: SkillKind;
  /** The folder written (or found already holding the same content). */
  readonly path?: string;
  /** `written`, or `unchanged` when the folder already held exactly this content. */
  readonly outcome?: 'written' | 'unchanged';
  /** True when the manifest and layer came from the cache without asking the registry. */
  readonly fromCache?: boolean;
  readonly signers?: readonly string[];
  /**
   * The files a pull just wrote, with the digests they were hashed to as the verified layer was
   * unpacked: what a caller that reads the folder again must find (`registry publish oci://`).
   */
  readonly files?: readonly PlacedFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Where a skill goes by default: SKILL.md folders where agents look, bundles among the project's skill roots. */
export function defaultPullDir(root: string, kind: SkillKind): string {
  return kind === 'agent-skill' ? join(root, '.agents', 'skills') : join(root, 'skills');
}

export async function pullSkill(req: PullRequest): Promise<PullResult> {
  const client = new RegistryClient(req.ref, req.transport);
  // By digest, with the manifest and config cached (each hashed as read): the folder may already
  // hold the skill, and then the layer is not even read (see below).
  const known = req.ref.digest !== undefined && isSha256Digest(req.ref.digest) ? await cachedHead(req.cache, req.ref, req.ref.digest) : undefined;
  if (known === undefined) req.beforeTransfer?.();
  let fetched: FetchedArtifact | StreamingArtifact | undefined;
  const { digest, config } = known ?? (fetched = await openArtifact(client, req.ref, req.cache));
  const reference = formatOciReference({ ...req.ref, digest });

  let signers: string[] | undefined;
  if ((req.minSigners ?? 0) > 0) {
    signers = await trustedSigners(client, digest, req.keys ?? new Map());
    if (signers.length < (req.minSigners ?? 0)) {
      return {
        ok: false,
        reference,
        digest,
        config,
        fromCache: fetched?.fromCache ?? true,
        signers,
        diagnostics: [
          diag('OCI_SIGNERS_TOO_FEW', `${reference} has ${signers.length} distinct trusted signer(s)${signers.length > 0 ? ` (${signers.join(', ')})` : ''}; --min-signers asks for ${req.minSigners}`, {
            hint: 'push --sign with the keys the keys file trusts, or lower --min-signers',
          }),
        ],
      };
    }
  }

  const withSigners = signers !== undefined ? { signers } : {};
  // The skill's kind from the config places it; the layer must then say the same.
  const parent = req.outDir ?? defaultPullDir(req.root, config.kind);
  if (req.outDir === undefined) await refuseLinkedDefault(req.root, parent);
  // A second pull of a cached digest whose folder is already in place: the folder is validated
  // and must be the skill the verified config names (id, version, manifest and content), and hold
  // exactly the files of the cached layer, which is read (re-hashed) and listed in memory but not
  // unpacked: nothing would be written. Anything else takes the full pull below.
  if (known !== undefined && isPlainName(config.id)) {
    const dest = join(parent, config.id);
    const there = (await entryExists(dest)) ? await checkSkillDir(dest, dest).catch(() => undefined) : undefined;
    if (there?.ok === true && there.kind === config.kind && isSkill(there.identity, config)) {
      const files = await cachedLayerFiles(req.cache, known.artifact.layer, `${reference} (layer)`);
      if (files !== undefined && (await holdsExactly(dest, files))) {
        return { ok: true, reference, digest, config, fromCache: true, ...withSigners, kind: config.kind, path: dest, outcome: 'unchanged', diagnostics: there.diagnostics };
      }
    }
  }
  // The layer from the cache (re-hashed), or the registry for what is missing.
  if (fetched === undefined) {
    req.beforeTransfer?.();
    fetched = (known !== undefined ? await withCachedLayer(req.cache, req.ref, known) : undefined) ?? (await openArtifact(client, req.ref, req.cache));
  }
  const base = { reference, digest, config, fromCache: fetched.fromCache };
  let madeParent: string | undefined;
  try {
    madeParent = await makeDirs(parent, 0o755);
  } catch (err) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `cannot make ${parent}: ${errnoCode(err) ?? String(err)}`);
  }
  const scratch = await mkdtemp(join(parent, '.skillctl-pull-'));
  let placed = false;
  try {
    // The guarded walk of run ARCHIVE, streamed: links, `..`, devices, duplicates and bombs are
    // refused as the layer is unpacked into the scratch folder, each file hashed as it is written.
    const label = `${reference} (layer)`;
    const target = join(scratch, 'skill');
    const bounds = streamedArchiveBounds(fetched.artifact.layer.size);
    // A layer not in the cache is unpacked as it downloads; the result is used only after the
    // whole layer hashed to its digest (streamLayer throws otherwise, and `finally` below removes
    // the scratch folder with whatever the unverified bytes made in it).
    let source;
    if ('layerPath' in fetched) {
      source = await unpackTgzFile(fetched.layerPath, target, bounds, label);
      // The cached layer was hashed when it was looked up, and read again to be unpacked: a file
      // swapped in between could add files the digests leave out (node_modules/, .skillignore'd
      // names) to a skill whose identity still matches. What was unpacked must hash to the layer.
      if (source.archiveDigest !== fetched.artifact.layer.digest) {
        throw new SkillctlError('OCI_DIGEST_MISMATCH', `the cached layer of ${reference} changed while it was read (hashed to ${source.archiveDigest})`, { hint: 'pull it again' });
      }
    } else source = (await fetched.streamLayer((pieces) => unpackTgz(pieces, target, bounds, label))).result;
    const check = await checkSkillSource(source, config.id, { dirName: config.id });
    if (!check.ok || check.kind === undefined || check.identity === undefined) return { ok: false, ...base, ...withSigners, diagnostics: check.diagnostics };
    // A lock in the layer would make the placed folder (or one in it) a project of the publisher's
    // making: `run ID` started there ran the layer's copy of a skill the project pins.
    const lock = (await source.list()).files.find((f) => opensAsLock(f.path));
    if (lock !== undefined) {
      const why = `${reference}: the layer holds ${lock.path}, which makes the folder holding it a project of its own (its lock, keys and policy) to skillctl started there`;
      return { ok: false, ...base, ...withSigners, diagnostics: [...check.diagnostics, diag('PIN_NESTED_LOCK', why, { file: lock.path, hint: 'a skill carries no lock: ask its publisher to remove it' })] };
    }
    if (check.kind !== config.kind || !isSkill(check.identity, config)) {
      throw new SkillctlError(
        'OCI_MANIFEST_INVALID',
        `${reference}: the config says ${config.kind} ${config.id} with manifest ${config.manifest_digest} and content ${config.content_digest}; the layer holds ${check.kind} ${check.identity.skill_id} with manifest ${check.identity.manifest_digest} and content ${check.identity.content_digest}`,
      );
    }
    const dest = join(parent, check.identity.skill_id);
    const done = { ok: true, ...base, ...withSigners, kind: check.kind, path: dest, diagnostics: check.diagnostics } as const;
    const files = await placedFiles(source);
    let raced = false;
    if (await entryExists(dest)) {
      placed = true; // the folder is there either way: what was made for it stays
      // Unchanged only when the folder is exactly what was just unpacked, every file of it
      // (ignored and excluded ones included, since a skill run earlier may have planted them).
      if (await holdsExactly(dest, files)) return { ...done, outcome: 'unchanged' };
      if (req.force !== true) {
        throw new SkillctlError('OUTPUT_EXISTS', `${dest} exists and holds other content`, { hint: 'pass --force to replace it, or --out to write elsewhere' });
      }
      // --force: the old folder is moved aside, the new one renamed in, then the old removed.
      const aside = join(dirname(dest), `.${basename(dest)}.old-${randomBytes(6).toString('hex')}`);
      const movedAside = await renameUnlessTaken(dest, aside, 'ENOENT');
      raced = !(await renameUnlessTaken(source.dir, dest, 'ENOTEMPTY', 'EEXIST'));
      if (movedAside) await rm(aside, { recursive: true, force: true });
    } else {
      raced = !(await renameUnlessTaken(source.dir, dest, 'ENOTEMPTY', 'EEXIST'));
      placed = true;
    }
    // Another pull (or any writer) placed a folder at dest between the look and the rename:
    // what it placed stays, and this pull says what it found instead of failing as a bug.
    if (raced) {
      if (await holdsExactly(dest, files)) return { ...done, outcome: 'unchanged' };
      throw new SkillctlError('OUTPUT_EXISTS', `${dest} was written by another command while this pull ran, and holds other content`, {
        hint: 'pull into one folder one at a time; pull again to see what is there (--force replaces it)',
      });
    }
    return { ...done, outcome: 'written', files };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    // A failed pull leaves the destination as it was: folders made for it go again, but only
    // while empty: another pull into the same new folder may have placed its skill there meanwhile.
    if (!placed && madeParent !== undefined) await removeMadeDirs(parent, madeParent);
  }
}

/**
 * Renames `from` to `to`; false when the rename failed with one of `taken` (the name was taken,
 * or gone, by the time of the rename), any other failure thrown.
 */
async function renameUnlessTaken(from: string, to: string, ...taken: readonly string[]): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (err) {
    const code = errnoCode(err);
    if (code !== undefined && taken.includes(code)) return false;
    throw err;
  }
}

/** A skill id from an untrusted config that names one folder, not a path. */
function isPlainName(id: string): boolean {
  return !id.includes('/') && !id.startsWith('.') && unsafeArchivePath(id) === undefined;
}

/**
 * Whether `identity` is the skill the config names: its id, version and both digests. The content
 * digest alone leaves out a bundle's manifest (skill.yaml is not part of its own content), so a
 * folder whose manifest was edited, and its digests fixed, would pass for the pulled skill. The
 * digests cover the layer's version, not the config's copy of it, which a publisher sets to
 * anything: a config whose version is not the layer's describes another skill.
 */
function isSkill(identity: SkillIdentity | undefined, config: SkillConfig): boolean {
  return (
    identity?.skill_id === config.id &&
    identity.skill_version === config.version &&
    identity.manifest_digest === config.manifest_digest &&
    identity.content_digest === config.content_digest
  );
}
