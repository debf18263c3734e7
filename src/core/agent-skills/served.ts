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
 * The walk (which folders, which files, kept directory listings) is served-walk.ts; what is kept
 * between listings, served-cache.ts; reading and hashing the files, served-read.ts.
 */
import { lstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import { childPath, DirCursor, dirSource, LinkOnTheWay, MANIFEST_NAMES, pathBelow, RootChanged, rootChangedFound, symlinkFound, syncDirOps, type BundleFile } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { pushAll } from '../findings.js';
import { MANIFEST_MAX_BYTES, validateBundle } from '../manifest/index.js';
import type { DigestCache, PathIdentity } from './served-cache.js';
import { walkFolder } from './served-handles.js';
import type { ServedFile, ServedSkill, ServedSkills } from './served-model.js';
import { hashRegularFile, KeptFileTooLarge, type HashedFile } from './served-read.js';
import { ABSENT, identityOf, sameIdentity, SERVED_SKILL_MD, type FileIdentity, type SkillFolder } from './served-walk.js';
import { manifestToSkillMd } from './to-skill-md.js';
import { checkSkillMd } from './validate.js';
import { skillNameKey } from './checks/name.js';

const MANIFEST_FILES: ReadonlySet<string> = new Set(MANIFEST_NAMES);

/** The root file whose rules decide which files a skill has (itself among them: it may ignore itself). */
const SKILLIGNORE = '.skillignore';

/** Root files that decide what a skill is: a read may use the last entry only while these are unchanged. */
const SHAPING_FILES: ReadonlySet<string> = new Set([SERVED_SKILL_MD, SKILLIGNORE]);

/** The key a folder's entry is kept under. */
export function skillKey(folder: Pick<SkillFolder, 'dir' | 'path' | 'label'>): string {
  return `${folder.dir}\0${folder.path}\0${folder.label}`;
}

/**
 * A skill.contract.v1 bundle (skill.yaml, no SKILL.md) as an Agent Skill: the SKILL.md
 * `skillctl convert` would write, made from the validated manifest (deterministic, so its digest
 * is stable while the manifest is), served as the bundle's SKILL.md.
 */
async function contractSkillMd(at: string, dir: string, label: string, files: readonly BundleFile[]): Promise<{ bytes?: Buffer; diagnostics: readonly Diagnostic[] }> {
  const v = await validateBundle(at, label);
  const errors = v.diagnostics.filter((d) => d.severity === 'error');
  if (!v.valid || v.manifest === undefined) return { diagnostics: errors };
  const conv = manifestToSkillMd(v.manifest, { dirName: basename(dir), files, file: join(label, SERVED_SKILL_MD) });
  if (conv.text === undefined) return { diagnostics: conv.diagnostics.filter((d) => d.severity === 'error') };
  return { bytes: Buffer.from(conv.text, 'utf8'), diagnostics: [] };
}

const unreadable = (err: unknown, what: string, file: string): Diagnostic => diag('BUNDLE_UNREADABLE', `cannot read ${what}: ${errnoCode(err) ?? String(err)}`, { file });

/**
 * One folder: a SKILL.md folder, or a skill.contract.v1 bundle served through the conversion. No
 * skill and no finding when the folder holds neither. The caller has begun a pass of `cache`'s walker.
 */
export async function readServedSkill(folder: SkillFolder, cache: DigestCache): Promise<{ readonly skill?: ServedSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const r = await readFolder(folder, cache);
  // A folder that is no skill now keeps nothing: its last entry can never serve again, and its
  // files would be checked at every listing (on the checker's thread too) for nothing.
  if (r.skill === undefined) cache.forget(skillKey(folder));
  return r;
}

/** The folder below its root ('' for the root itself), a clean POSIX path. */
function folderRel(folder: SkillFolder): string {
  return folder.dir === folder.base ? '' : folder.path;
}

/**
 * The reading itself; what is kept of the folder is left for `readServedSkill` to drop when it
 * finds no skill. A folder read afresh is opened through its root's handles and walked and
 * hashed through its own (served-handles.ts): a directory that is a link, or became one since
 * the folders were found, is never followed.
 */
async function readFolder(folder: SkillFolder, cache: DigestCache): Promise<{ readonly skill?: ServedSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const unchanged = cache.unchangedSkill(skillKey(folder));
  if (unchanged !== undefined) return { skill: unchanged, diagnostics: [] };
  // The root, when held, opened without following a link and only while it is the directory held.
  const outer = new DirCursor(syncDirOps, folder.base, folder.baseId, false);
  let inner: DirCursor | undefined;
  try {
    let at: string;
    try {
      at = await outer.at(folderRel(folder));
    } catch (err) {
      if (err instanceof RootChanged) return { diagnostics: [{ ...rootChangedFound(), file: folder.label }] };
      return { diagnostics: [err instanceof LinkOnTheWay ? { ...symlinkFound(folder.label), hint: 'a skill folder is never reached through a link' } : unreadable(err, 'directory', folder.label)] };
    }
    inner = new DirCursor(syncDirOps, at);
    return await readOpened(folder, cache, at, inner);
  } finally {
    await inner?.close();
    await outer.close();
  }
}

/** A folder opened as `at` (a handle's path, or its own), its files reached through `files`. */
async function readOpened(folder: SkillFolder, cache: DigestCache, at: string, files: DirCursor): Promise<{ readonly skill?: ServedSkill; readonly diagnostics: readonly Diagnostic[] }> {
  const { dir, label } = folder;
  const key = skillKey(folder);
  const walker = cache.walker;
  const abs = (path: string): string => pathBelow(dir, path);
  // The root .skillignore decides which files are listed, and a line `.skillignore` in it leaves
  // it out of them; yet an edit of it in place (which moves no directory's times) changes what
  // is served. So its identity, ABSENT when there is none, is kept and checked with the files
  // whether it is listed or not. Taken before the walk reads it: what is kept is never newer
  // than the rules the walk applied.
  let ignore: FileIdentity | undefined;
  try {
    const st = lstatSync(childPath(at, SKILLIGNORE), { throwIfNoEntry: false });
    ignore = st === undefined ? ABSENT : identityOf(st);
  } catch {
    // Not even stat'able (the listing says why, if it can list at all): nothing of it is kept.
    ignore = undefined;
  }
  const walk = walkFolder(walker, at, dir);
  const listing = await dirSource(at, undefined, walk.ops).list();
  const hasMd = listing.files.some((f) => f.path === SERVED_SKILL_MD);
  const isContract = !hasMd && listing.files.some((f) => MANIFEST_FILES.has(f.path));
  if (!hasMd && !isContract) return { diagnostics: [] };
  const inLabel = (d: Diagnostic): Diagnostic => ({ ...d, file: d.file !== undefined ? join(label, d.file) : label });
  if (hasErrors(listing.diagnostics)) return { diagnostics: listing.diagnostics.filter((d) => d.severity === 'error').map(inLabel) };
  // The folder as the walk saw it: every file's path and identity (stat'ed through its
  // directory's handle by the listing just made), then the .skillignore when the listing left it out.
  const seen: PathIdentity[] = [];
  for (const f of listing.files) {
    const st = walk.stats.get(abs(f.path));
    if (st === undefined) return { diagnostics: [inLabel(diag('BUNDLE_UNREADABLE', 'cannot read a file: it was not stat\'ed by the walk', { file: f.path }))] };
    seen.push({ path: f.path, identity: identityOf(st) });
  }
  if (ignore !== undefined && !listing.files.some((f) => f.path === SKILLIGNORE)) seen.push({ path: SKILLIGNORE, identity: ignore });
  const kept = cache.skill(key, seen);
  if (kept !== undefined) return { skill: kept, diagnostics: [] };
  const file = join(label, SERVED_SKILL_MD);
  let md: HashedFile | undefined;
  let bytes: Buffer;
  let made: Buffer | undefined;
  // A folder refused before, its files as they were then, is refused alike: read again, a
  // contract bundle is hashed whole and a SKILL.md read whole, at every listing.
  const refused = cache.refusal(key, seen);
  if (refused !== undefined) return { diagnostics: refused };
  const refuse = (diagnostics: readonly Diagnostic[]): { readonly diagnostics: readonly Diagnostic[] } => {
    // Kept only while every file is as the walk saw it, settled (a change then changes an identity).
    if (seen.every((s) => walker.settled(s.identity))) cache.keepRefusal(key, seen, diagnostics);
    return { diagnostics };
  };
  if (isContract) {
    // Validated through the folder's handle: its manifest is the one in the folder walked.
    const c = await contractSkillMd(at, dir, label, listing.files);
    if (c.bytes === undefined) return refuse(c.diagnostics);
    bytes = made = c.bytes;
  } else {
    try {
      // Past the bound checkSkillMd refuses it at, it is refused unread: a refused skill is not
      // kept, and its SKILL.md would be read whole again at every listing.
      md = hashRegularFile(childPath(at, SERVED_SKILL_MD), true, MANIFEST_MAX_BYTES);
      bytes = md.bytes as Buffer;
    } catch (err) {
      if (err instanceof KeptFileTooLarge) return { diagnostics: [skillMdTooLarge(err, file)] };
      return { diagnostics: [unreadable(err, SERVED_SKILL_MD, file)] };
    }
  }
  const all = made === undefined ? listing.files : [...listing.files, { path: SERVED_SKILL_MD, size: made.length, mode: '0644' as const }].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const checked = checkSkillMd(bytes, { file, dirLabel: label, dirName: basename(dir), files: all });
  const frontmatter = checked.document?.frontmatter;
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (checked.properties === undefined || frontmatter === undefined || errors.length > 0) return refuse(errors);
  const served: ServedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  // Kept for later listings only if every file was hashed as the walk saw it, with settled times
  // (an unlisted .skillignore too, which is not hashed: its rules were applied as it was then).
  let keep = ignore !== undefined && walker.settled(ignore);
  const walked = new Map(seen.map((s) => [s.path, s.identity]));
  for (const f of all) {
    if (made !== undefined && f.path === SERVED_SKILL_MD) {
      served.push({ path: f.path, size: made.length, digest: sha256(made), made });
      continue;
    }
    const path = abs(f.path);
    const identity = walked.get(f.path);
    const cached = identity !== undefined ? cache.digest(path, identity) : undefined;
    let hashed: HashedFile;
    if (cached !== undefined && identity !== undefined) hashed = { digest: cached, identity };
    else if (md !== undefined && f.path === SERVED_SKILL_MD) hashed = md;
    else {
      try {
        // In path order, through the handles of its directories (kept open for the next file).
        hashed = hashRegularFile(await files.file(f.path), false);
      } catch (err) {
        diagnostics.push(inLabel(err instanceof LinkOnTheWay ? symlinkFound(err.dir) : unreadable(err, 'file', f.path)));
        // Every file below a link is as unreadable: one finding says why.
        if (err instanceof LinkOnTheWay) break;
        continue;
      }
    }
    const same = identity !== undefined && sameIdentity(hashed.identity, identity);
    keep = cache.keepDigest(path, hashed.identity, hashed.digest) && same && keep;
    served.push({ path: f.path, size: hashed.identity.size, digest: hashed.digest, identity: hashed.identity });
  }
  if (diagnostics.length > 0) return { diagnostics };
  const skill: ServedSkill = { path: folder.path, name: checked.properties.name, label, frontmatter, files: served, dir, base: folder.base, ...(folder.baseId !== undefined && { baseId: folder.baseId }) };
  if (keep) {
    // A contract bundle's SKILL.md is made from files a read does not check: no shape, so every read lists it afresh.
    const shapeDirs = walk.dirs.map((d) => ({ path: d, identity: walker.dirIdentity(d) }));
    const shaped = made === undefined && shapeDirs.every((d) => d.identity !== undefined);
    const shape = shaped
      ? { dirs: shapeDirs as PathIdentity[], files: seen.filter((s) => SHAPING_FILES.has(s.path)).map((s) => ({ path: abs(s.path), identity: s.identity })) }
      : undefined;
    cache.keepSkill(key, { files: seen, paths: seen.map((s) => abs(s.path)), skill, ...(shape !== undefined ? { shape } : {}) });
  } else {
    // The last entry is out of date, and this one is not kept: nothing of the folder is.
    cache.forget(key);
  }
  return { skill, diagnostics: [] };
}

/** The finding checkSkillMd gives a SKILL.md past the bound, for one refused by its size. */
function skillMdTooLarge(err: KeptFileTooLarge, file: string): Diagnostic {
  return diag('MANIFEST_TOO_LARGE', `SKILL.md is ${err.size} bytes; the bound is ${err.max}`, { file, hint: 'move long material into references/ files that the body links to' });
}

/** The folders in order; of two with one path, the first. The caller has begun a pass of `cache`'s walker. */
export async function readServedSkills(folders: readonly SkillFolder[], cache: DigestCache): Promise<ServedSkills> {
  const skills: ServedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const byPath = new Map<string, ServedSkill>();
  // Two skills at two paths are two URIs, both served; but one spelt so as to read as the other's
  // name (`ｈｅｌｌｏ` beside `hello`, as validate and the reference read names) is said.
  const byName = new Map<string, ServedSkill>();
  for (const folder of folders) {
    const r = await readServedSkill(folder, cache);
    pushAll(diagnostics, r.diagnostics);
    if (r.skill === undefined) continue;
    const key = skillNameKey(r.skill.name);
    const alike = byName.get(key);
    if (alike !== undefined && alike.name !== r.skill.name && alike.path !== r.skill.path) {
      diagnostics.push(
        diag('AGENT_SKILL_NAME_DUPLICATE', `skill name ${JSON.stringify(r.skill.name)} reads as ${JSON.stringify(alike.name)}, served from ${alike.label}`, {
          file: join(folder.label, SERVED_SKILL_MD),
          hint: 'agents tell skills apart by name; rename one of them',
        }),
      );
    } else if (alike === undefined) byName.set(key, r.skill);
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
