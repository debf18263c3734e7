/**
 * Validates an Agent Skills folder: SKILL.md's frontmatter and body, and the folder around it.
 * Every finding is collected (the reference validator lists errors as plain text; Anthropic's
 * quick_validate stops at the first); the profile sets severities once, at the end.
 */
import { readdirNames as readdir, stat } from '../fs/callback-fs.js';
import { readBounded, refusalDiagnostic } from '../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../manifest/index.js';
import { basename, join, resolve } from 'node:path';
import { bundleDirSource, computeContent, listAndHash, type BundleDirOptions, type BundleFile, type BundleListing, type BundleSource } from '../bundle/index.js';
import type { Sha256Digest } from '../digest/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { CHECKS } from './checks/index.js';
import { parseSkillMd, type SkillMdDocument } from './frontmatter.js';
import { SKILL_MD_NAMES, type AgentSkillProfile, type AgentSkillProperties, type NameCharset, type SkillMdName } from './model.js';
import { applyProfile } from './profiles.js';
import { pushAll } from '../findings.js';

export interface AgentSkillOptions {
  /** Default `default`. */
  readonly profile?: AgentSkillProfile;
  /** Default `ascii`, the specification's a-z 0-9 -. */
  readonly nameCharset?: NameCharset;
}

export interface CheckSkillMdOptions extends AgentSkillOptions {
  /** How SKILL.md is named in diagnostics. */
  readonly file: string;
  /** The folder's name, for the name-must-match-folder rule; omitted, the rule is skipped. */
  readonly dirName?: string;
  /** The folder's files, for links and size limits; omitted, those checks are skipped. */
  readonly files?: readonly BundleFile[];
  /** How the folder is named in diagnostics about the folder as a whole. */
  readonly dirLabel?: string;
}

export interface AgentSkillValidation {
  readonly kind: 'agent-skill';
  /** SKILL.md as named in diagnostics. */
  readonly file: string;
  /** The skill folder as named in diagnostics, when a folder was read. */
  readonly dir?: string;
  readonly profile: AgentSkillProfile;
  readonly nameCharset: NameCharset;
  /** True when no finding has error severity under the profile. */
  readonly valid: boolean;
  /** name, description and the other fields, when name and description are strings. */
  readonly properties?: AgentSkillProperties;
  readonly diagnostics: readonly Diagnostic[];
  /** The folder's files, when a folder was read. */
  readonly files?: readonly BundleFile[];
  /**
   * The folder's `content_digest` (the bundle recipe, docs/formats/digests.md: every file, SKILL.md
   * included, except a root skill.yaml, skill.json or signatures.json), when every file was read.
   */
  readonly contentDigest?: Sha256Digest;
  /** The parsed file, for renderers and converters. */
  readonly document?: SkillMdDocument;
}

/** Fields as `skills-ref read-properties` gives them; undefined unless name and description are strings. */
export function toProperties(doc: SkillMdDocument): AgentSkillProperties | undefined {
  const data = doc.frontmatter;
  if (data === undefined || typeof data.name !== 'string' || typeof data.description !== 'string') return undefined;
  // Trimmed, as the reference's read_properties returns them; the name checks compare NFKC forms.
  const props: { -readonly [K in keyof AgentSkillProperties]: AgentSkillProperties[K] } = {
    name: data.name.trim(),
    description: data.description.trim(),
  };
  if (typeof data.license === 'string') props.license = data.license;
  if (typeof data.compatibility === 'string') props.compatibility = data.compatibility;
  const tools = data['allowed-tools'];
  if (typeof tools === 'string') props['allowed-tools'] = tools;
  else if (Array.isArray(tools) && tools.every((t) => typeof t === 'string')) props['allowed-tools'] = tools.join(' ');
  const m = data.metadata;
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) {
    const meta: Record<string, string> = {};
    for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
      if (typeof v === 'string') meta[k] = v;
      else if (v === null || typeof v !== 'object') meta[k] = doc.sourceOf(`/metadata/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`) ?? String(v);
    }
    if (Object.keys(meta).length > 0) props.metadata = meta;
  }
  return props;
}

const KEYED: ReadonlySet<string> = new Set(['AGENT_SKILL_FIELD_UNKNOWN', 'AGENT_SKILL_EXTENSION_FIELD', 'MANIFEST_FORBIDDEN_KEY']);
const FOLDER_LEVEL: ReadonlySet<string> = new Set(['AGENT_SKILL_TOO_MANY_FILES', 'AGENT_SKILL_TOO_LARGE']);

/** Checks SKILL.md bytes. Pure: the folder's name and files are passed in. */
export function checkSkillMd(bytes: Uint8Array, opts: CheckSkillMdOptions): AgentSkillValidation {
  const profile = opts.profile ?? 'default';
  const nameCharset = opts.nameCharset ?? 'ascii';
  const doc = parseSkillMd(bytes);
  const found: Diagnostic[] = [...doc.diagnostics];
  if (doc.frontmatter !== undefined) {
    const ctx = {
      data: doc.frontmatter,
      doc,
      nameCharset,
      ...(opts.dirName !== undefined ? { dirName: opts.dirName } : {}),
      ...(opts.files !== undefined ? { files: opts.files } : {}),
    };
    for (const check of CHECKS) pushAll(found, check.check(ctx));
  }
  const placed = found.map((d) => {
    const file = FOLDER_LEVEL.has(d.code) && opts.dirLabel !== undefined ? opts.dirLabel : opts.file;
    let out: Diagnostic = d.file === undefined ? { ...d, file } : d;
    if (d.pointer !== undefined && d.line === undefined) {
      const p = doc.locate(d.pointer, { key: KEYED.has(d.code) });
      if (p !== undefined) out = { ...out, line: p.line, column: p.column };
    }
    return out;
  });
  const diagnostics = sortDiagnostics(applyProfile(placed, profile));
  const properties = toProperties(doc);
  return {
    kind: 'agent-skill',
    file: opts.file,
    ...(opts.dirLabel !== undefined ? { dir: opts.dirLabel } : {}),
    profile,
    nameCharset,
    valid: !hasErrors(diagnostics),
    ...(properties !== undefined ? { properties } : {}),
    diagnostics,
    ...(opts.files !== undefined ? { files: opts.files } : {}),
    document: doc,
  };
}

/** The skill file of a folder: SKILL.md, else skill.md (the reference's fallback), else a finding. */
export async function findSkillMd(dir: string): Promise<{ name: SkillMdName; path: string } | { diagnostic: Diagnostic }> {
  for (const name of SKILL_MD_NAMES) {
    const path = join(dir, name);
    try {
      const st = await stat(path);
      // On a case-insensitive file system skill.md answers to SKILL.md: use the name on disk.
      if (st.isFile()) return { name: name === 'SKILL.md' ? await caseOnDisk(dir) : name, path };
    } catch (err) {
      const code = errnoCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        return { diagnostic: diag('BUNDLE_UNREADABLE', `cannot read ${name}: ${code ?? String(err)}`) };
      }
    }
  }
  return { diagnostic: skillMdMissing() };
}

function skillMdMissing(): Diagnostic {
  return diag('AGENT_SKILL_MD_MISSING', 'missing required file: SKILL.md', {
    hint: 'create SKILL.md with --- frontmatter (name, description) and instructions, or run skillctl init --format skill-md',
  });
}

async function caseOnDisk(dir: string): Promise<SkillMdName> {
  const names = await readdir(dir);
  return names.includes('SKILL.md') ? 'SKILL.md' : 'skill.md';
}

function failed(file: string, dir: string, d: Diagnostic, opts: AgentSkillOptions): AgentSkillValidation {
  const diagnostics = applyProfile([d.file === undefined ? { ...d, file } : d], opts.profile ?? 'default');
  return {
    kind: 'agent-skill',
    file,
    dir,
    profile: opts.profile ?? 'default',
    nameCharset: opts.nameCharset ?? 'ascii',
    valid: !hasErrors(diagnostics),
    diagnostics,
  };
}

/** Where `validateAgentSkillSource` reads a folder from, and how it names it. */
export interface AgentSkillSourceOptions extends AgentSkillOptions {
  /** How the folder is named in results. */
  readonly label: string;
  /**
   * The folder's own name, for the name-must-match-folder rule. An archive has none (its file
   * name is `<name>-<version>.tgz`): omitted, the rule is skipped.
   */
  readonly dirName?: string;
  /** The source's listing, when the caller already walked it. */
  readonly listing?: BundleListing;
}

/** The checks after SKILL.md was found and read: shared by folders on disk and archives. */
async function checkFolder(bytes: Uint8Array, name: SkillMdName, source: BundleSource, opts: AgentSkillSourceOptions): Promise<AgentSkillValidation> {
  const label = opts.label;
  const file = join(label, name);
  const listing = opts.listing ?? (await source.list());
  const content = await computeContent(source, listing);
  const checked = checkSkillMd(bytes, {
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
    ...(opts.nameCharset !== undefined ? { nameCharset: opts.nameCharset } : {}),
    file,
    dirLabel: label,
    ...(opts.dirName !== undefined ? { dirName: opts.dirName } : {}),
    files: listing.files,
  });
  const result = content.complete ? { ...checked, contentDigest: content.digest } : checked;
  const extra: Diagnostic[] = content.diagnostics.map((d) => ({ ...d, file: d.file !== undefined ? join(label, d.file) : label }));
  if (name === 'skill.md') {
    extra.push(
      diag('AGENT_SKILL_MD_LOWERCASE', 'the skill file is named skill.md', {
        file,
        hint: 'rename it to SKILL.md: Claude upload and most clients look for that exact name',
      }),
    );
  }
  if (extra.length === 0) return result;
  const diagnostics = sortDiagnostics([...result.diagnostics, ...applyProfile(extra, result.profile)]);
  return { ...result, valid: !hasErrors(diagnostics), diagnostics };
}

/**
 * Reads and validates the Agent Skills folder `dir`: SKILL.md, the name-folder match, and the
 * folder's files (links, size limits, and the symlink and special-file refusals of bundles).
 * `label` names the folder in results (default: `dir`); `dirName` is its name (default: the last
 * segment of `dir`). The folder is walked once and each file read once (bundle/content.ts
 * `listAndHash`): the SKILL.md checked is the one hashed with the rest.
 */
export async function validateAgentSkill(
  dir: string,
  opts: AgentSkillOptions & BundleDirOptions & { readonly label?: string; readonly dirName?: string } = {},
): Promise<AgentSkillValidation> {
  const label = opts.label ?? dir;
  try {
    const st = await stat(dir);
    if (!st.isDirectory()) return failed(label, label, diag('BUNDLE_NOT_FOUND', `not a directory: ${label}`), opts);
  } catch (err) {
    const why = errnoCode(err) === 'ENOENT' ? 'path does not exist' : `cannot read (${errnoCode(err) ?? String(err)})`;
    return failed(label, label, diag('BUNDLE_NOT_FOUND', `${why}: ${label}`), opts);
  }
  const source = bundleDirSource(dir, opts);
  const { listing } = await listAndHash(source);
  const replaced = listing.diagnostics.find((d) => d.code === 'BUNDLE_ROOT_CHANGED');
  if (replaced !== undefined) return failed(label, label, replaced, opts);
  const folder = { ...opts, label, dirName: opts.dirName ?? basename(resolve(dir)), listing };
  const listed = SKILL_MD_NAMES.find((n) => listing.files.some((f) => f.path === n && f.size <= MANIFEST_MAX_BYTES));
  if (listed !== undefined) {
    let bytes: Buffer;
    try {
      bytes = await source.read(listed);
    } catch (err) {
      return failed(join(label, listed), label, diag('BUNDLE_UNREADABLE', `cannot read ${listed}: ${errnoCode(err) ?? String(err)}`), opts);
    }
    return checkFolder(bytes, listed, source, folder);
  }
  // Not a regular file the walk read (missing, a FIFO, too large, left out by .skillignore): its
  // own finding, as its path gives it.
  const found = await findSkillMd(dir);
  if ('diagnostic' in found) return failed(label, label, found.diagnostic, opts);
  // A FIFO or device named SKILL.md is refused before it is opened (read-bounded.ts).
  const read = await readBounded(found.path, { maxBytes: MANIFEST_MAX_BYTES });
  if (!read.ok) return failed(join(label, found.name), label, refusalDiagnostic(read, found.name, 'MANIFEST_TOO_LARGE'), opts);
  return checkFolder(read.bytes, found.name, source, folder);
}

/**
 * Validates an Agent Skills folder read through `source` (an archive held in memory, say): as
 * `validateAgentSkill`, with SKILL.md (else skill.md) found in the listing. Never throws for a
 * file that cannot be read: that is a finding.
 */
export async function validateAgentSkillSource(source: BundleSource, opts: AgentSkillSourceOptions): Promise<AgentSkillValidation> {
  const listing = opts.listing ?? (await source.list());
  const name = SKILL_MD_NAMES.find((n) => listing.files.some((f) => f.path === n));
  if (name === undefined) return failed(opts.label, opts.label, skillMdMissing(), opts);
  let bytes: Buffer;
  try {
    bytes = await source.read(name);
  } catch (err) {
    return failed(join(opts.label, name), opts.label, diag('BUNDLE_UNREADABLE', `cannot read ${name}: ${errnoCode(err) ?? String(err)}`), opts);
  }
  return checkFolder(bytes, name, source, { ...opts, listing });
}
