/**
 * Verifies one skill pin of a skillctl lock against the folder or archive it names, in fixed
 * steps, collecting every finding: the source exists inside the project; the archive's bytes
 * (when an archive); the listing (no links, devices or unportable names); the manifest parses
 * (for an Agent Skills pin, SKILL.md's frontmatter); its identity is the pin's; every digest recomputed equals the lock's and the manifest's
 * own; the signatures in signatures.json verify and satisfy the lock's signer policy.
 * `ok` is true only when all of that ran and passed.
 */
import { join } from 'node:path';
import {
  archiveSourceFromBytes,
  DIGEST_EXCLUDED_ROOT_FILES,
  dirSource,
  listAndHash,
  type ArchiveSource,
  type BundleSource,
} from '../bundle/index.js';
import { DEFAULT_ARCHIVE_BOUNDS, inflateLimit } from '../archive/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { sha256, treeDigest, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { describeRefusal } from '../fs/read-bounded.js';
import { checkSignatures, loadSignatures, signaturesUncovered, type SignaturesDoc } from '../sign/index.js';
import type { SkillctlLockContext } from './context.js';
import { declaredByManifest, declaredBySkillMd, readOr } from './declared.js';
import type { SkillPin } from './model.js';
import { resolveSource, unsafeSourcePath } from './paths.js';
import { pushAll } from '../findings.js';

export interface DigestComparison {
  readonly expected: string;
  /** The recomputed value; null when it could not be computed. */
  readonly actual: string | null;
}

export interface PinVerification {
  readonly ok: boolean;
  readonly pin: SkillPin;
  /** JSON pointer of the pin in the lock (`/skills/<i>`), when the pin is one of the lock's. */
  readonly pointer?: string;
  /** Each digest the lock records, with the recomputed value. */
  readonly digests: Readonly<Record<string, DigestComparison>>;
  /** Signers whose signatures verified. */
  readonly signers: readonly string[];
  /** The verified bundle's files (a directory, or the archive held in memory), when it was read. */
  readonly source?: BundleSource;
  /** The manifest's data, when it parsed. */
  readonly manifest?: Readonly<Record<string, unknown>>;
  readonly diagnostics: readonly Diagnostic[];
}

/** Lists, hashes and reads a skill source (a bundle or a SKILL.md folder), and compares it with the pin. */
async function checkBundle(
  ctx: SkillctlLockContext,
  pin: SkillPin,
  source: BundleSource,
  base: string | undefined,
  found: Diagnostic[],
  digests: Record<string, DigestComparison>,
): Promise<{ signers: string[]; manifest?: Record<string, unknown> }> {
  const label = pin.source;
  const inLock = (field: string): { file: string; pointer?: string } => ({
    file: ctx.lockFile,
    ...(base !== undefined ? { pointer: `${base}/${field}` } : {}),
  });
  const compare = (field: 'manifest_digest' | 'content_digest' | 'files_digest', actual: Sha256Digest | undefined): void => {
    const expected = pin[field];
    digests[field] = { expected, actual: actual ?? null };
    if (actual !== undefined && actual !== expected) {
      found.push(diag('PIN_MODIFIED', `${field} is ${expected} in the lock but ${actual} for ${label}`, { ...inLock(field), hint: 'restore the pinned files, or pin the change as a new version' }));
    }
  };

  const { listing, hashed } = await listAndHash(source);
  pushAll(found, listing.diagnostics.map((d) => ({ ...d, file: d.file !== undefined ? `${label}/${d.file}` : label })));
  pushAll(found, hashed.diagnostics.map((d) => ({ ...d, file: `${label}/${d.file ?? ''}` })));
  const complete = !hasErrors(listing.diagnostics) && !hasErrors(hashed.diagnostics);
  const filesDigest = complete ? treeDigest(hashed.files) : undefined;
  compare('files_digest', filesDigest);
  // Without signatures.json (or another excluded root file) both digests cover the same list.
  const covered = hashed.files.filter((f) => !DIGEST_EXCLUDED_ROOT_FILES.has(f.path));
  const content = !complete ? undefined : covered.length === hashed.files.length ? filesDigest : treeDigest(covered);
  compare('content_digest', content);

  const declared = await (pin.kind === 'agent-skill' ? declaredBySkillMd : declaredByManifest)(source, listing.files, content, label, found);
  if (declared.identity !== undefined) {
    for (const [field, want] of [
      ['skill_id', pin.skill_id],
      ['skill_version', pin.skill_version],
    ] as const) {
      const have = declared.identity[field];
      if (have !== want) {
        found.push(diag('PIN_IDENTITY_MISMATCH', `the lock pins ${field} ${JSON.stringify(want)} but ${declared.file ?? label} declares ${JSON.stringify(have ?? null)}`, inLock(field)));
      }
    }
  }
  const manifestDigest = declared.manifestDigest;
  compare('manifest_digest', manifestDigest);
  // A bundle's signatures cover its other files only through the manifest's content_digest.
  const uncovered = pin.kind !== 'agent-skill' && declared.manifest !== undefined && declared.manifest.content_digest === undefined ? declared.file : undefined;
  const present = listing.files.some((f) => f.path === 'signatures.json');
  const signers = manifestDigest === undefined ? [] : await checkPinSignatures(ctx, pin, source, present, manifestDigest, inLock('signers'), found, uncovered);
  return { signers, ...(declared.manifest !== undefined ? { manifest: declared.manifest } : {}) };
}

async function checkPinSignatures(
  ctx: SkillctlLockContext,
  pin: SkillPin,
  source: BundleSource,
  present: boolean,
  digest: Sha256Digest,
  at: { file: string; pointer?: string },
  found: Diagnostic[],
  uncovered?: string,
): Promise<string[]> {
  const required = pin.signers.length > 0 || ctx.minSigners > 0;
  if (!present && !required) return [];
  const file = `${pin.source}/signatures.json`;
  let doc: SignaturesDoc | undefined;
  if (present) {
    const bytes = await readOr(source, 'signatures.json', file, found);
    if (bytes === undefined) return [];
    const loaded = loadSignatures(bytes, file);
    pushAll(found, loaded.diagnostics);
    if (loaded.doc === undefined) return [];
    doc = loaded.doc;
  } else {
    found.push(diag('SIGNATURES_INVALID', 'the pin requires signatures but the bundle has no signatures.json', { file: pin.source, hint: 'skillctl pin --sign <key> --signer <id>' }));
  }
  if (uncovered !== undefined && (required || (doc?.signatures.length ?? 0) > 0)) {
    // The manifest declares no content_digest: its digest, which is what is signed, covers none of
    // the bundle's other files, so a signature of it vouches for whatever code sits beside it
    // (other code re-pinned under the same manifest kept its signers). No signature counts.
    found.push(signaturesUncovered(uncovered));
    return [];
  }
  if (hasErrors(ctx.trustDiagnostics)) {
    // Without trusted keys nothing can verify; the trust findings say why.
    pushAll(found, ctx.trustDiagnostics);
    return [];
  }
  const check = await checkSignatures(doc, {
    digest,
    keys: ctx.keys,
    expected: pin.signers,
    minSigners: ctx.minSigners,
    file,
    lockFile: at.file,
    ...(at.pointer !== undefined ? { lockPointer: at.pointer } : {}),
    // A thread of verify-pins' pool reads with blocking calls; it verifies the same way.
    blocking: ctx.ops.blocking,
  });
  pushAll(found, check.diagnostics);
  return [...check.valid];
}

/** Opens the pin's source: its directory, or its archive (digest checked) held in memory. */
async function openSource(
  ctx: SkillctlLockContext,
  pin: SkillPin,
  base: string | undefined,
  found: Diagnostic[],
  digests: Record<string, DigestComparison>,
): Promise<BundleSource | undefined> {
  const at = (field: string): { file: string; pointer?: string } => ({ file: ctx.lockFile, ...(base !== undefined ? { pointer: `${base}/${field}` } : {}) });
  const { abs, diagnostic } = await resolveSource(ctx.root, pin.source, 'source', at('source'), ctx.ops, ctx.realRoot);
  if (diagnostic !== undefined) {
    found.push(diagnostic);
    return undefined;
  }
  const isArchive = pin.source.endsWith('.tgz');
  if (isArchive !== (pin.archive_digest !== undefined)) {
    found.push(diag('LOCK_INVALID', 'archive_digest must be present exactly when the source is a .tgz archive', at(isArchive ? 'source' : 'archive_digest')));
    return undefined;
  }
  const missing = (why: string): undefined => {
    found.push(diag('PIN_MISSING', `${pin.source} ${why}`, { ...at('source'), hint: 'restore it, or remove the pin' }));
    return undefined;
  };
  if (isArchive) {
    // A FIFO or device named like an archive is refused before it is opened (read-bounded.ts).
    const read = await ctx.ops.readBounded(abs, { maxBytes: inflateLimit(DEFAULT_ARCHIVE_BOUNDS) });
    if (!read.ok) {
      if (read.reason === 'missing') return missing('does not exist');
      if (read.reason === 'not-regular') return missing(`is a ${read.kind}, not a regular file`);
      if (read.reason === 'too-large') {
        found.push(diag('ARCHIVE_TOO_LARGE', `${pin.source} exceeds ${read.maxBytes} bytes`, at('source')));
        return undefined;
      }
      throw new SkillctlError('INPUT_UNREADABLE', describeRefusal(read, pin.source));
    }
    const bytes = read.bytes;
    const actual = sha256(bytes);
    digests.archive_digest = { expected: pin.archive_digest as string, actual };
    if (actual !== pin.archive_digest) {
      found.push(diag('PIN_MODIFIED', `archive_digest is ${String(pin.archive_digest)} in the lock but ${actual} for ${pin.source}`, at('archive_digest')));
    }
    return archiveSourceFromBytes(bytes, pin.source);
  }
  try {
    if (!(await ctx.ops.stat(abs)).isDirectory()) return missing('is not a directory');
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return missing('does not exist');
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${pin.source}: ${code ?? String(err)}`, { cause: err });
  }
  return dirSource(abs, undefined, ctx.ops);
}

/**
 * Verifies `pin` (normally one of `ctx.lock.skills`) against its source. Read-only: nothing is
 * written, and an archive is read into memory, never unpacked.
 */
export async function verifySkillPin(ctx: SkillctlLockContext, pin: SkillPin): Promise<PinVerification> {
  const index = ctx.lock.skills.indexOf(pin);
  const base = index === -1 ? undefined : `/skills/${index}`;
  const found: Diagnostic[] = [];
  const digests: Record<string, DigestComparison> = {};
  const source = await openSource(ctx, pin, base, found, digests);
  let signers: string[] = [];
  let manifest: Record<string, unknown> | undefined;
  if (source !== undefined) ({ signers, manifest } = await checkBundle(ctx, pin, source, base, found, digests));
  return result(pin, base, source, found, digests, signers, manifest);
}

function result(
  pin: SkillPin,
  base: string | undefined,
  source: BundleSource | undefined,
  found: Diagnostic[],
  digests: Record<string, DigestComparison>,
  signers: string[],
  manifest: Record<string, unknown> | undefined,
): PinVerification {
  // A fixed key order, whatever order the digests were computed in.
  const ordered: Record<string, DigestComparison> = {};
  for (const field of ['manifest_digest', 'content_digest', 'files_digest'] as const) ordered[field] = digests[field] ?? { expected: pin[field], actual: null };
  if (digests.archive_digest !== undefined) ordered.archive_digest = digests.archive_digest;
  const diagnostics = sortDiagnostics(found);
  return {
    ok: source !== undefined && !hasErrors(diagnostics),
    pin,
    ...(base !== undefined ? { pointer: base } : {}),
    digests: ordered,
    signers,
    ...(source !== undefined ? { source } : {}),
    ...(manifest !== undefined ? { manifest } : {}),
    diagnostics,
  };
}

/**
 * Verifies a bundle source the caller opened (a directory, or an archive it read, e.g. to run
 * it from memory) against `pin`. For an archive source the archive digest is compared too.
 */
export async function verifySourceAgainstPin(ctx: SkillctlLockContext, pin: SkillPin, source: BundleSource | ArchiveSource): Promise<PinVerification> {
  const index = ctx.lock.skills.indexOf(pin);
  const base = index === -1 ? undefined : `/skills/${index}`;
  const found: Diagnostic[] = [];
  const digests: Record<string, DigestComparison> = {};
  if ('archiveDigest' in source) {
    digests.archive_digest = { expected: pin.archive_digest ?? '', actual: source.archiveDigest };
    if (source.archiveDigest !== pin.archive_digest) {
      found.push(
        diag('PIN_MODIFIED', `archive_digest is ${pin.archive_digest ?? '(none)'} in the lock but ${source.archiveDigest} for ${source.location}`, {
          file: ctx.lockFile,
          ...(base !== undefined ? { pointer: `${base}/archive_digest` } : {}),
        }),
      );
    }
  }
  const { signers, manifest } = await checkBundle(ctx, pin, source, base, found, digests);
  return result(pin, base, source, found, digests, signers, manifest);
}

/** The bundle directory a skill pin names, for callers that run it (undefined for an archive). */
export function pinnedDirectory(ctx: SkillctlLockContext, pin: SkillPin): string | undefined {
  return pin.archive_digest === undefined && unsafeSourcePath(pin.source) === undefined ? join(ctx.root, ...pin.source.split('/')) : undefined;
}
