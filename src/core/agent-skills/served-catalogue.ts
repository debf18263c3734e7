/**
 * The skills one server offers, from its roots (resolved at start and held to the directories
 * they were then, served-roots.ts; the folders under them read on every call, through one walker
 * and one cache kept for the server's life):
 *
 * - `list()`: every skill, every directory checked and every file stat'ed (a `readdir` only of
 *   a changed directory, a hash only of a changed file);
 * - `get(path)`: one skill, found without walking the roots, and listed as `list()` would;
 * - `lookup(path)`: for a read of one file, the skill at the longest leading run of the
 *   segments of `path` (a URI's `<skill-path>/<file-path>`) that is one, in one pass and one
 *   walk down the path: the skill's last entry while its shape (directories, SKILL.md,
 *   .skillignore) is unchanged, else as `get`. The read checks the file it serves against that
 *   entry, and on a mismatch calls `forget` and reads from `get`.
 *
 * A skill found gone by `get` or `lookup` (its folder, or its SKILL.md) is dropped at once, with
 * what is kept of it: a server that is only read from, never listed, would otherwise keep every
 * deleted skill until the next listing.
 *
 * Reads of single files (`lookup(path, { file: true })`) that arrive within `READ_PASS_MS` of
 * one another share one pass: one stat of each directory and segment, not one a read (a host
 * reads a skill of 1,000 files with 1,000 requests, 16 in flight). That is safe because the
 * shape only decides which entry to start from: the file served is always checked when it is
 * opened (its identity, then its bytes against the listed digest, served-read.ts), so what a
 * shared check can miss is a change elsewhere in the skill, which a check of its own could miss
 * just as well between its stat and the open. A listing, `get` and a fresh lookup always begin
 * a pass of their own. A lookup for a directory read (whose answer is the shape itself) shares
 * only a pass another such lookup began, for a few times what that pass cost
 * (`SHARED_PASS_COSTS`, served-shared-pass.ts), so that a walk of a skill's directories is linear.
 */
import { pushAll } from '../findings.js';
import { DigestCache } from './served-cache.js';
import type { IdentityChecker } from './served-check.js';
import type { ServedFile, ServedSkill, ServedSkills } from './served-model.js';
import { readServedSkills, skillKey } from './served.js';
import { ServedRoots, type CheckedRoots, type HeldRoot, type ServedRoot } from './served-roots.js';
import { SharedPasses } from './served-shared-pass.js';
import { ServedWalker, type Clock, type SkillFolder } from './served-walk.js';
import { basename, join } from 'node:path';

/** Milliseconds during which reads of single files share the checks of one pass (see above). */
export const READ_PASS_MS = 20;

/** What a lookup is for: `file` when the caller reads one file and checks it against the entry. */
export interface LookupOptions {
  readonly file?: boolean;
  /**
   * Each run that holds a folder listed as `get` lists it, none served from its last entry: for
   * a read whose entry was found wanting. One pass for all of them, not one each: a URI's runs
   * are many, and a pass per run would age every kept directory listing out of the walker at once.
   */
  readonly fresh?: boolean;
}

export interface ServedCatalogue {
  list(): Promise<ServedSkills>;
  get(path: string): Promise<ServedSkill | undefined>;
  /** The skill at the longest leading run of `path`'s segments that is one (its `path` is that run), or undefined. */
  lookup(path: string, opts?: LookupOptions): Promise<ServedSkill | undefined>;
  forget(skill: ServedSkill, file: ServedFile): void;
  /** The files whose digests are kept between listings (absolute paths): what the last listing or read still uses. */
  digestPaths(): string[];
  /** Stops the checker's thread, if any (the server is done). */
  close(): void;
}

/** `checker`: another thread that makes a share of a listing's per-file checks (served-check.ts). */
export function servedCatalogue(given: readonly ServedRoot[], now: Clock, checker?: IdentityChecker): ServedCatalogue {
  const walker = new ServedWalker(now);
  const cache = new DigestCache(walker, checker);
  const roots = new ServedRoots(given);
  // The roots the current pass may use: checked once a pass (reads that share a pass share it).
  let checked: { readonly pass: number; readonly roots: CheckedRoots } | undefined;
  const live = async (): Promise<CheckedRoots> => {
    if (checked?.pass === walker.pass) return checked.roots;
    const pass = walker.pass;
    const result = await roots.check();
    checked = { pass, roots: result };
    return result;
  };
  // The folder each skill path was last served from, for `lookup` and `forget`.
  const served = new Map<string, SkillFolder>();
  // The most segments of a skill path read or listed: a lookup looks for gone skills along that much of its path.
  let deepest = 0;
  const saw = (path: string): void => void (deepest = Math.max(deepest, path.split('/').length));
  // No folder at `path` holds a skill now (none was found there): nothing is kept of the folder
  // each root would serve it from (the walker's, root's own included), listed or read before.
  const dropGone = (path: string): void => {
    served.delete(path);
    for (const r of roots.held()) {
      cache.forget(skillKey({ dir: join(r.dir, ...path.split('/')), path, label: `${r.label}/${path}` }));
      if (path === basename(r.dir)) cache.forget(skillKey({ dir: r.dir, path, label: r.label }));
    }
  };
  // The folders of each leading run of `path`'s segments, every root's in root order (the
  // folders of a run all have that run as their path): one walk down the path a root.
  const along = async (path: string): Promise<SkillFolder[][]> => {
    const runs: SkillFolder[][] = [];
    for (const r of (await live()).roots) walker.skillFoldersAlong(r.dir, r.label, path, r.identity).forEach((folders, k) => pushAll((runs[k] ??= []), folders));
    return runs;
  };
  // A pass begun by the caller: the runs of one URI share its stats.
  const read = async (path: string, folders: readonly SkillFolder[]): Promise<ServedSkill | undefined> => {
    const skill = (await readServedSkills(folders, cache)).skills[0];
    const from = skill !== undefined ? folders.find((f) => f.dir === skill.dir) : undefined;
    if (from !== undefined) {
      served.set(path, from);
      saw(path);
    } else dropGone(path);
    cache.prune();
    return skill;
  };
  const get = async (path: string): Promise<ServedSkill | undefined> => {
    walker.begin();
    return read(path, (await along(path))[path.split('/').length - 1] ?? []);
  };
  // The skill at the longest run of `path` that is one, in the pass the caller began.
  const lookupIn = async (path: string, fresh: boolean): Promise<ServedSkill | undefined> => {
    const runs = await along(path);
    // Longest first (a nested skill before the skill it lies in); most runs name no folder and
    // are passed over before a run is hashed as a key. What `served` still holds for a run is
    // harmless: it is used only when the same folder is again the first one there, and then
    // only while its shape is unchanged.
    let skill: ServedSkill | undefined;
    for (let k = runs.length - 1; k >= 0 && skill === undefined; k--) {
      const folders = runs[k] as SkillFolder[];
      const run = folders[0]?.path;
      if (run === undefined) continue;
      const from = fresh ? undefined : served.get(run);
      // Still the first folder of that run (no earlier root gained one), with its shape unchanged.
      const kept = from !== undefined && folders[0]?.dir === from.dir ? cache.shapedSkill(skillKey(from)) : undefined;
      skill = kept ?? (await read(run, folders));
    }
    // Each run below the skill found that this walk found no folder at: a skill listed or read
    // there before is gone. Only as deep as a skill path ever was, so a long URI costs nothing.
    const segs = path.split('/');
    const depth = skill === undefined ? 0 : skill.path.split('/').length;
    const below = Math.min(segs.length, deepest);
    let run = segs.slice(0, depth).join('/');
    for (let k = depth; k < below; k++) {
      run = k === 0 ? (segs[0] as string) : `${run}/${segs[k] as string}`;
      if ((runs[k]?.length ?? 0) === 0) dropGone(run);
    }
    if (depth < below) cache.prune();
    return skill;
  };
  const shared = new SharedPasses(walker);
  const folders = (r: HeldRoot): SkillFolder[] => walker.findSkillFolders(r.dir, r.label, r.identity);
  return {
    list: async () => {
      walker.begin();
      const held = await live();
      // The files of the skills kept from the last listing are checked first (a share of them on
      // the checker's thread, beside the walk of the directories here); reading the skills then
      // finds which are unchanged without a stat of their files.
      const found = await cache.checkFiles(() => held.roots.flatMap(folders));
      const skills = await readServedSkills(found, cache);
      // A root replaced since start is said first: its skills are missing for that reason.
      const listed = held.diagnostics.length > 0 ? { ...skills, diagnostics: [...held.diagnostics, ...skills.diagnostics] } : skills;
      for (const s of listed.skills) saw(s.path);
      // Nothing is kept of a folder this walk did not find (a folder that is no skill now kept
      // nothing already: served.ts); the checker hears of what it drops with the rest, below.
      const keys = new Set(found.map(skillKey));
      cache.retain(keys);
      cache.prune();
      for (const [path, from] of served) if (!keys.has(skillKey(from))) served.delete(path);
      cache.flush();
      return listed;
    },
    get,
    async lookup(path, opts) {
      const fresh = opts?.fresh === true;
      if (opts?.file === true && !fresh) walker.beginWithin(READ_PASS_MS);
      else if (fresh) walker.begin();
      else {
        const end = shared.begin();
        try {
          return await lookupIn(path, false);
        } finally {
          end();
        }
      }
      return lookupIn(path, fresh);
    },
    forget(skill, file) {
      const from = served.get(skill.path);
      if (from !== undefined) cache.forget(skillKey(from), join(skill.dir, ...file.path.split('/')));
    },
    digestPaths: () => cache.digestPaths(),
    close: () => checker?.close(),
  };
}
