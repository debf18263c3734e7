/**
 * Agent Skills as the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) serves
 * them: each SKILL.md folder with its frontmatter, verbatim, and every file with its size and
 * sha256 digest, so a host can check each file it reads against the listing. The extension
 * makes a file the listing lacks a verification failure, so a folder is served whole or not at
 * all: a symbolic link, special file or unreadable entry anywhere in it, or a SKILL.md that
 * `validate` rejects, keeps the skill out, and the finding says why.
 *
 * A skill's path (`skill://<path>/SKILL.md`) is its folder's path below the root it was found
 * under, so it ends in the folder's name, which `validate` makes equal to the frontmatter `name`.
 * A SKILL.md below another skill is a skill of its own (a flat entry) and, for the outer skill,
 * one of its files (SEP-2640, nested skills). Two roots holding one path serve the first.
 *
 * Digests are kept by file identity (device, inode, size, modification and change times): a
 * listing re-hashes only what changed since the last one, and a read checks that the file it
 * opened is the one listed, so a file changed after listing is never served under its old digest.
 */
import { constants as fsConstants, lstatSync, readdirSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { dirSource, EXCLUDED_DIRS, MANIFEST_NAMES, syncDirOps, type BundleFile, type BundleSource, type DirOps } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { validateBundle } from '../manifest/index.js';
import { manifestToSkillMd } from './to-skill-md.js';
import { errnoCode } from '../errors.js';
import { pushAll } from '../findings.js';
import { checkSkillMd } from './validate.js';

/** The one file name the extension knows a skill by. */
export const SERVED_SKILL_MD = 'SKILL.md';

/** What says a file is the one that was hashed. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

export interface ServedFile {
  /** POSIX path relative to the skill's folder. */
  readonly path: string;
  readonly size: number;
  readonly digest: Sha256Digest;
  readonly identity: FileIdentity;
  /** The bytes of a file made rather than read: the SKILL.md of a skill.contract.v1 bundle. */
  readonly made?: Buffer;
}

export interface ServedSkill {
  /** The skill's path in the namespace (`acme/billing/refunds`); its last segment is `name`. */
  readonly path: string;
  /** The frontmatter `name`, equal to the folder's name. */
  readonly name: string;
  /** How the folder is named in findings (relative to the project root, or as given). */
  readonly label: string;
  /** The frontmatter as parsed, every field, as the extension's `skills/list` carries it. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file of the folder (SKILL.md included), in path order; .skillignore'd files are not part of it. */
  readonly files: readonly ServedFile[];
  /** The folder, absolute. */
  readonly dir: string;
}

export interface ServedSkills {
  readonly skills: readonly ServedSkill[];
  /** Why a folder is not served. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A folder to serve: where it is, its path in the namespace, and its name in findings. */
export interface SkillFolder {
  readonly dir: string;
  readonly path: string;
  readonly label: string;
}

/**
 * Digests by absolute file path, valid while the file's identity is unchanged; and each skill as
 * last read, valid while its listing (every path and identity) is unchanged, so a listing of
 * unchanged folders costs their walk and nothing more (no read, no parse, no hash).
 */
export class DigestCache {
  readonly #entries = new Map<string, { identity: FileIdentity; digest: Sha256Digest }>();
  readonly #skills = new Map<string, { fingerprint: string; skill: ServedSkill }>();

  skill(key: string, fingerprint: string): ServedSkill | undefined {
    const e = this.#skills.get(key);
    return e !== undefined && e.fingerprint === fingerprint ? e.skill : undefined;
  }

  keepSkill(key: string, fingerprint: string, skill: ServedSkill): void {
    this.#skills.set(key, { fingerprint, skill });
  }

  get(file: string, identity: FileIdentity): Sha256Digest | undefined {
    const e = this.#entries.get(file);
    return e !== undefined && sameIdentity(e.identity, identity) ? e.digest : undefined;
  }

  set(file: string, identity: FileIdentity, digest: Sha256Digest): void {
    this.#entries.set(file, { identity, digest });
  }
}

export function identityOf(st: Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** The walk's calls (blocking: a listing is many small calls), keeping each file's lstat. */
function recordingOps(stats: Map<string, Stats>): DirOps {
  return {
    ...syncDirOps,
    lstat: (path) => {
      try {
        const st = lstatSync(path);
        stats.set(path, st);
        return Promise.resolve(st);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

const MANIFEST_FILES: ReadonlySet<string> = new Set(MANIFEST_NAMES);

/** A made file has no identity on disk. */
const MADE: FileIdentity = { dev: -1, ino: -1, size: -1, mtimeMs: -1, ctimeMs: -1 };

/**
 * A skill.contract.v1 bundle (skill.yaml, no SKILL.md) as an Agent Skill: the SKILL.md
 * `skillctl convert` would write, made from the validated manifest (deterministic, so its digest
 * is stable while the manifest is), served as the bundle's SKILL.md.
 */
async function contractSkillMd(dir: string, label: string, files: readonly BundleFile[]): Promise<{ bytes?: Buffer; diagnostics: readonly Diagnostic[] }> {
  const v = await validateBundle(dir, label);
  const errors = v.diagnostics.filter((d) => d.severity === 'error');
  if (!v.valid || v.manifest === undefined) return { diagnostics: errors };
  const conv = manifestToSkillMd(v.manifest, { dirName: basename(dir), files, file: join(label, SERVED_SKILL_MD) });
  if (conv.text === undefined) return { diagnostics: conv.diagnostics.filter((d) => d.severity === 'error') };
  return { bytes: Buffer.from(conv.text, 'utf8'), diagnostics: [] };
}

/**
 * One folder: a SKILL.md folder, or a skill.contract.v1 bundle served through the conversion. No
 * skill and no finding when the folder holds neither.
 */
export async function readServedSkill(folder: SkillFolder, cache: DigestCache = new DigestCache()): Promise<{ readonly skill?: ServedSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const { dir, label } = folder;
  const stats = new Map<string, Stats>();
  const source: BundleSource = dirSource(dir, undefined, recordingOps(stats));
  const listing = await source.list();
  const hasMd = listing.files.some((f) => f.path === SERVED_SKILL_MD);
  const isContract = !hasMd && listing.files.some((f) => MANIFEST_FILES.has(f.path));
  if (!hasMd && !isContract) return { diagnostics: [] };
  const at = (d: Diagnostic): Diagnostic => ({ ...d, file: d.file !== undefined ? join(label, d.file) : label });
  if (hasErrors(listing.diagnostics)) return { diagnostics: listing.diagnostics.filter((d) => d.severity === 'error').map(at) };
  // The folder as it is now: every file's path and identity. A contract bundle's SKILL.md is
  // made from its manifest, which is one of these files.
  const fingerprint = listing.files
    .map((f) => {
      const st = stats.get(join(dir, ...f.path.split('/')));
      return st === undefined ? `${f.path}\0?` : `${f.path}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    })
    .join('\n');
  const key = `${dir}\0${folder.path}\0${label}`;
  const kept = cache.skill(key, fingerprint);
  if (kept !== undefined) return { skill: kept, diagnostics: [] };
  const file = join(label, SERVED_SKILL_MD);
  let bytes: Buffer;
  let made: Buffer | undefined;
  if (isContract) {
    const c = await contractSkillMd(dir, label, listing.files);
    if (c.bytes === undefined) return { diagnostics: c.diagnostics };
    bytes = made = c.bytes;
  } else {
    try {
      bytes = await source.read(SERVED_SKILL_MD);
    } catch (err) {
      return { diagnostics: [diag('BUNDLE_UNREADABLE', `cannot read ${SERVED_SKILL_MD}: ${errnoCode(err) ?? String(err)}`, { file })] };
    }
  }
  const all = made === undefined ? listing.files : [...listing.files, { path: SERVED_SKILL_MD, size: made.length, mode: '0644' as const }].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const checked = checkSkillMd(bytes, { file, dirLabel: label, dirName: basename(dir), files: all });
  const frontmatter = checked.document?.frontmatter;
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (checked.properties === undefined || frontmatter === undefined || errors.length > 0) return { diagnostics: errors };
  const files: ServedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const f of all) {
    if (made !== undefined && f.path === SERVED_SKILL_MD) {
      files.push({ path: f.path, size: made.length, digest: sha256(made), identity: MADE, made });
      continue;
    }
    const abs = join(dir, ...f.path.split('/'));
    const st = stats.get(abs);
    if (st === undefined) {
      diagnostics.push(at(diag('BUNDLE_UNREADABLE', 'the file was not seen by the listing', { file: f.path })));
      continue;
    }
    const identity = identityOf(st);
    let digest = cache.get(abs, identity);
    if (digest === undefined) {
      try {
        digest = await source.digest(f.path);
      } catch (err) {
        diagnostics.push(at(diag('BUNDLE_UNREADABLE', `cannot read file: ${errnoCode(err) ?? String(err)}`, { file: f.path })));
        continue;
      }
      cache.set(abs, identity, digest);
    }
    files.push({ path: f.path, size: f.size, digest, identity });
  }
  if (diagnostics.length > 0) return { diagnostics };
  const skill: ServedSkill = { path: folder.path, name: checked.properties.name, label, frontmatter, files, dir };
  cache.keepSkill(key, fingerprint, skill);
  return { skill, diagnostics: [] };
}

/** The folders in order; of two with one path, the first. */
export async function readServedSkills(folders: readonly SkillFolder[], cache: DigestCache = new DigestCache()): Promise<ServedSkills> {
  const skills: ServedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const byPath = new Map<string, ServedSkill>();
  for (const folder of folders) {
    const r = await readServedSkill(folder, cache);
    pushAll(diagnostics, r.diagnostics);
    if (r.skill === undefined) continue;
    const first = byPath.get(r.skill.path);
    if (first !== undefined) {
      diagnostics.push(
        diag('AGENT_SKILL_NAME_DUPLICATE', `skill path ${JSON.stringify(r.skill.path)} is also served from ${first.label}; only that one is served`, {
          file: join(folder.label, SERVED_SKILL_MD),
          hint: 'agents tell skills apart by their URI; rename or move one of them',
        }),
      );
    } else {
      byPath.set(r.skill.path, r.skill);
      skills.push(r.skill);
    }
  }
  return { skills, diagnostics };
}

/** At most this many directories are walked under one root looking for skills. */
const MAX_WALKED_DIRS = 100_000;

/**
 * Every folder holding a SKILL.md or a skill manifest under `root` (absolute), nested ones included, with its path
 * below the root; the root itself when it holds one (its path is then its own name). Links and
 * the directories a bundle never includes (.git, node_modules, .skillctl) are not entered.
 */
export function findSkillMdFolders(root: string, label: string): SkillFolder[] {
  const out: SkillFolder[] = [];
  const stack: string[] = [''];
  let walked = 0;
  while (stack.length > 0 && walked++ < MAX_WALKED_DIRS) {
    const rel = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(rel === '' ? root : join(root, ...rel.split('/')), { withFileTypes: true });
    } catch {
      continue;
    }
    if (entries.some((e) => (e.name === SERVED_SKILL_MD || MANIFEST_FILES.has(e.name)) && e.isFile())) {
      const path = rel === '' ? basename(root) : rel;
      out.push({ dir: rel === '' ? root : join(root, ...rel.split('/')), path, label: rel === '' ? label : `${label}/${rel}` });
    }
    for (const e of entries) if (e.isDirectory() && !EXCLUDED_DIRS.has(e.name)) stack.push(rel === '' ? e.name : `${rel}/${e.name}`);
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Why a listed file was not read: it is no longer the file the listing hashed. */
export class ServedFileChanged extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since it was listed`);
  }
}

// O_NOFOLLOW: a file swapped for a link is refused; O_NONBLOCK: a FIFO swapped in does not block the open.
const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * The bytes of one listed file, only if the file opened is the one listed (same device, inode,
 * size and times): a file replaced, edited, or reached through a directory swapped for a link
 * since the listing throws ServedFileChanged, and the caller lists the skill again.
 */
export async function readServedFile(skill: ServedSkill, file: ServedFile): Promise<Buffer> {
  if (file.made !== undefined) return Buffer.from(file.made);
  const fh = await open(join(skill.dir, ...file.path.split('/')), OPEN_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile() || !sameIdentity(identityOf(st), file.identity)) throw new ServedFileChanged(file.path);
    const bytes = Buffer.alloc(file.size);
    let off = 0;
    while (off < file.size) {
      const { bytesRead } = await fh.read(bytes, off, file.size - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    if (off !== file.size) throw new ServedFileChanged(file.path);
    return bytes;
  } finally {
    await fh.close();
  }
}
