/**
 * `pack`: a skill folder to a reproducible archive. The folder is validated first, as its kind
 * (a manifest bundle, or an Agent Skills SKILL.md folder), and an invalid one is refused. Two
 * formats, one or both per run:
 *
 * - `tgz`: `<skill_id>-<skill_version>.tgz` (for a SKILL.md folder `<name>-<metadata.version>.tgz`),
 *   holding exactly the files the content digest covers plus the manifest and signatures.json, in
 *   UTF-8 path order, with normalised headers and fixed gzip framing (src/core/archive/tar.ts,
 *   gzip.ts);
 * - `skill`: `<name>.skill`, the ZIP that Claude's upload expects (one top-level folder, the
 *   exclusions of package_skill.py; src/core/archive/skill-zip.ts), for a folder holding SKILL.md.
 *
 * Both are built in memory before either is written, each atomically: a refusal writes nothing.
 */
import { basename, join } from 'node:path';
import { validateAgentSkill, type AgentSkillProfile, type AgentSkillValidation } from '../agent-skills/index.js';
import {
  archiveTrailer,
  contentPadding,
  DEFAULT_ARCHIVE_BOUNDS,
  DeterministicGzip,
  fileHeader,
  packSkillZip,
  type ZipEntryInfo,
} from '../archive/index.js';
import {
  DIGEST_EXCLUDED_ROOT_FILES,
  dirSource,
  MANIFEST_NAMES,
  memorySource,
  type BundleFile,
  type BundleSource,
  type MemoryFile,
} from '../bundle/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { foldersOf, sha256, treeDigest, type Sha256Digest, type TreeFile } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { describeRefusal, readBounded } from '../fs/index.js';
import { computeManifestDigest, formatOf, parseDocumentBytes, type ManifestValidation } from '../manifest/index.js';
import { checkSkillDir, type SkillKind } from '../skill-gate/index.js';
import { writeOutputs } from './write-out.js';
import { pushAll } from '../findings.js';

/** `tgz`: the reproducible tar.gz that pin and run read. `skill`: the `.skill` ZIP of Claude's upload. */
export type PackFormat = 'tgz' | 'skill';
export const PACK_FORMATS: readonly PackFormat[] = ['tgz', 'skill'];

export interface PackedSkillFile {
  /** `outDir/<name>.skill`. */
  readonly path: string;
  readonly digest: Sha256Digest;
  readonly size: number;
  /** What went in, in archive order (paths under the top-level folder). */
  readonly entries: readonly ZipEntryInfo[];
  /** Files of the folder left out by package_skill.py's exclusions. */
  readonly excluded: readonly string[];
}

export interface PackResult {
  /** True when every requested archive was written. */
  readonly ok: boolean;
  /** What the folder is, when it is a skill folder at all. */
  readonly kind?: SkillKind;
  /** The archive's path (`outDir/<skill_id>-<skill_version>.tgz`), when written. */
  readonly archive?: string;
  /** sha256 of the archive bytes. */
  readonly digest?: Sha256Digest;
  readonly size?: number;
  /** Every file in the .tgz, in archive order, with its digest (empty when none was asked for). */
  readonly files: readonly TreeFile[];
  /** The `.skill` file, when asked for and written. */
  readonly skillFile?: PackedSkillFile;
  /** The validation that gated the pack (of the manifest, or of SKILL.md). */
  readonly validation: ManifestValidation | AgentSkillValidation;
  readonly diagnostics: readonly Diagnostic[];
}

/** The archive's bytes for a listed bundle: deterministic, no I/O but reading `read`. */
export async function buildArchive(
  files: readonly { path: string; size: number; mode: TreeFile['mode'] }[],
  read: (path: string) => Promise<Buffer>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ bytes: Buffer; files: TreeFile[] }> {
  const gz = new DeterministicGzip();
  try {
    const out: TreeFile[] = [];
    let written = 0;
    let done = 0;
    const total = files.reduce((n, f) => n + f.size, 0);
    // Read the next file while the current one is compressed.
    let next = files.length > 0 ? read((files[0] as TreeFile).path) : undefined;
    for (let i = 0; i < files.length; i++) {
      const f = files[i] as TreeFile;
      const data = await (next as Promise<Buffer>);
      next = i + 1 < files.length ? read((files[i + 1] as TreeFile).path) : undefined;
      const header = fileHeader(f.path, data.length, f.mode);
      gz.write(header);
      gz.write(data);
      const pad = contentPadding(data.length);
      gz.write(pad);
      written += header.length + data.length + pad.length;
      out.push({ path: f.path, size: data.length, mode: f.mode, digest: sha256(data) });
      done += f.size;
      onProgress?.(done, total);
    }
    gz.write(archiveTrailer(written));
    return { bytes: await gz.end(), files: out };
  } catch (err) {
    gz.abort();
    throw err;
  }
}

export interface PackOptions {
  /** How to name the folder in diagnostics (default: `dir`). */
  readonly label?: string;
  /** Archives to write (default: `tgz` only). */
  readonly formats?: readonly PackFormat[];
  /** How strictly SKILL.md is checked (default: `default`; `strict` as uploads check it). */
  readonly profile?: AgentSkillProfile;
  /** How to name `outDir` in errors (default: `outDir`). It is made, if missing, only to write into. */
  readonly outLabel?: string;
  /** Overwrite a `.tgz` of the same identity that holds other bytes (default false). */
  readonly force?: boolean;
  /** Called after each file goes into the `.tgz`: bytes of file content done of the total (default: none). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Seed 003: "(skill_id, skill_version) MUST be immutable". An archive is named after its identity,
 * so an existing one with other bytes is another content under the same identity: refused unless
 * forced. The same bytes again are what a reproducible pack writes, and are fine. The existing
 * file is read bounded by the new archive's size (a longer one differs) and never through a link.
 */
async function immutableArchive(path: string, bytes: Buffer, label: string, outLabel: string): Promise<Diagnostic | undefined> {
  const name = basename(path);
  const existing = await readBounded(path, { maxBytes: bytes.length, followLinks: false });
  if (!existing.ok && existing.reason === 'missing') return undefined;
  if (existing.ok && existing.bytes.equals(bytes)) return undefined;
  if (!existing.ok && existing.reason !== 'too-large') throw new SkillctlError('OUTPUT_UNWRITABLE', describeRefusal(existing, `${name} in ${outLabel}`));
  return diag('ARCHIVE_IMMUTABLE', `the archive ${name} in ${outLabel} holds other bytes: (skill_id, skill_version) MUST be immutable (seed 003), so it was not overwritten`, {
    file: label,
    hint: 'give the changed skill a new version, or pass --force if this version was never released',
  });
}

interface Built {
  readonly tgz?: { readonly path: string; readonly bytes: Buffer; readonly files: TreeFile[] };
  readonly skill?: { readonly path: string; readonly bytes: Buffer; readonly digest: Sha256Digest; readonly entries: readonly ZipEntryInfo[]; readonly excluded: readonly string[] };
}

/** The content digest of archived files: every one but a root manifest and signatures.json. */
function contentOf(files: readonly TreeFile[]): Sha256Digest {
  return treeDigest(files.filter((f) => !DIGEST_EXCLUDED_ROOT_FILES.has(f.path)));
}

/**
 * The manifest digest of the manifest an archive was built with (`read` bytes of skill.yaml or
 * skill.json), or undefined when there is not exactly one or it does not parse. The content
 * digest leaves the manifest out, so it alone cannot tell that the manifest changed after it was
 * validated.
 */
function manifestDigestOfRead(read: ReadonlyMap<string, Buffer>): Sha256Digest | undefined {
  if (read.size !== 1) return undefined;
  const [[name, bytes]] = [...read] as [[string, Buffer]];
  const doc = parseDocumentBytes(bytes, formatOf(name));
  return doc.data !== undefined && typeof doc.data === 'object' && doc.data !== null ? computeManifestDigest(doc.data as Record<string, unknown>).value : undefined;
}

/** The folder's files read once into memory, so the .skill holds exactly what was hashed. */
async function snapshot(source: BundleSource, files: readonly BundleFile[]): Promise<{ source: BundleSource; files: TreeFile[] }> {
  const held: MemoryFile[] = [];
  const hashed: TreeFile[] = [];
  for (const f of files) {
    const data = await source.read(f.path);
    held.push({ path: f.path, data, mode: f.mode });
    hashed.push({ path: f.path, size: data.length, mode: f.mode, digest: sha256(data) });
  }
  return { source: memorySource(held, source.location), files: hashed };
}

/**
 * Validates the skill folder in `dir` and writes the requested archives into `outDir` (made if
 * missing, and removed again if the writes fail), each atomically. A `.tgz` needs the folder's identity (for a SKILL.md folder, a semantic
 * `metadata.version`); a `.skill` needs a valid SKILL.md, whose `name` names the file and its
 * top-level folder.
 */
export async function packBundle(dir: string, outDir: string, opts: PackOptions = {}): Promise<PackResult> {
  const label = opts.label ?? dir;
  const formats = new Set(opts.formats ?? ['tgz']);
  const profile = opts.profile !== undefined ? { profile: opts.profile } : {};
  const check = await checkSkillDir(dir, label, profile);
  const kind = check.kind !== undefined ? { kind: check.kind } : {};
  // The identity (and so metadata.version) matters only for the .tgz, which is named after it.
  const diagnostics: Diagnostic[] = [...(formats.has('tgz') ? check.diagnostics : check.validation.diagnostics)];
  let skillMd: AgentSkillValidation | undefined;
  if (formats.has('skill')) {
    // A manifest bundle can carry a SKILL.md too (skillctl convert writes one): checked as well.
    const own = 'kind' in check.validation ? check.validation : undefined;
    skillMd = own ?? (await validateAgentSkill(dir, { ...profile, label }));
    // A manifest bundle without SKILL.md gets one from its manifest: convert, not init, is the fix.
    const convert = `skillctl convert ${label} writes SKILL.md from the manifest, then pack again`;
    const fixes = (d: Diagnostic): Diagnostic => (check.kind === 'bundle' && d.code === 'AGENT_SKILL_MD_MISSING' ? { ...d, hint: convert } : d);
    if (own === undefined) pushAll(diagnostics, skillMd.diagnostics.map(fixes));
  }
  const refused = (more: Diagnostic[] = []): PackResult => ({ ok: false, ...kind, files: [], validation: check.validation, diagnostics: sortDiagnostics([...diagnostics, ...more]) });
  const gated = formats.has('tgz') ? check.ok : check.validation.valid;
  if (!gated || hasErrors(diagnostics) || check.kind === undefined) return refused();

  const source = dirSource(dir);
  const listing = await source.list();
  if (hasErrors(listing.diagnostics)) return refused([...listing.diagnostics]);
  const total = listing.files.reduce((n, f) => n + f.size, 0);
  const bounds = DEFAULT_ARCHIVE_BOUNDS;
  // The readers bound the folders an archive names as they bound its files: an archive they would refuse is not written.
  const folders = foldersOf(listing.files.map((f) => f.path)).size;
  if (listing.files.length > bounds.maxFiles || folders > bounds.maxFiles || total > bounds.maxTotalBytes) {
    return refused([
      diag('ARCHIVE_TOO_LARGE', `the folder has ${listing.files.length} files in ${folders} folders and ${total} bytes; archives are bounded to ${bounds.maxFiles} files, as many folders, and ${bounds.maxTotalBytes} bytes`, {
        file: label,
        hint: 'pin the folder as a directory instead, or exclude files with .skillignore',
      }),
    ]);
  }
  // The files are read again after validation: if they changed in between, an archive would not
  // hold the folder that was validated.
  const changed = diag('CONTENT_DIGEST_MISMATCH', 'the folder changed while it was being packed', { file: label, hint: 'pack it again' });
  const built: { -readonly [K in keyof Built]: Built[K] } = {};
  if (formats.has('tgz') && check.identity !== undefined) {
    const manifests = new Map<string, Buffer>();
    const readFile = async (p: string): Promise<Buffer> => {
      const data = await source.read(p);
      if ((MANIFEST_NAMES as readonly string[]).includes(p)) manifests.set(p, data);
      return data;
    };
    const { bytes, files } = await buildArchive(listing.files, readFile, opts.onProgress);
    if (contentOf(files) !== check.identity.content_digest) return refused([changed]);
    if (check.kind === 'bundle' && manifestDigestOfRead(manifests) !== check.identity.manifest_digest) return refused([changed]);
    built.tgz = { path: join(outDir, `${check.identity.skill_id}-${check.identity.skill_version}.tgz`), bytes, files };
  }
  const name = skillMd?.properties?.name;
  if (formats.has('skill') && name !== undefined) {
    const held = await snapshot(source, listing.files);
    if (contentOf(held.files) !== skillMd?.contentDigest) return refused([changed]);
    const zip = await packSkillZip(held.source, name);
    if (zip.bytes === undefined || zip.digest === undefined) return refused([...zip.diagnostics]);
    built.skill = { path: join(outDir, `${name}.skill`), bytes: zip.bytes, digest: zip.digest, entries: zip.entries, excluded: zip.excluded };
  }
  if (built.tgz !== undefined && opts.force !== true) {
    const refusal = await immutableArchive(built.tgz.path, built.tgz.bytes, label, opts.outLabel ?? outDir);
    if (refusal !== undefined) return refused([refusal]);
  }
  // Only now is the output directory made: a pack refused above leaves nothing behind.
  await writeOutputs(outDir, opts.outLabel ?? outDir, [built.tgz, built.skill].filter((f) => f !== undefined));
  const { tgz, skill } = built;
  return {
    ok: true,
    ...kind,
    ...(tgz !== undefined ? { archive: tgz.path, digest: sha256(tgz.bytes), size: tgz.bytes.length } : {}),
    files: tgz?.files ?? [],
    ...(skill !== undefined ? { skillFile: { path: skill.path, digest: skill.digest, size: skill.bytes.length, entries: skill.entries, excluded: skill.excluded } } : {}),
    validation: check.validation,
    diagnostics: sortDiagnostics(diagnostics),
  };
}
