/**
 * The file walk behind `mcp --skills`: which folders are skills, and the calls the bundle walker
 * makes to list one. A server answers many listings of folders that rarely change, so a
 * directory's entries are kept by the directory's identity (device, inode, size, modification
 * and change times) and read again only when that changed: a later listing costs
 * a `stat` of every directory and an `lstat` of every file, never a `readdir` of an unchanged
 * directory. No watcher: every listing checks every directory it uses.
 *
 * Racy timestamps: a file system stamps times at a coarse granularity (a kernel tick, or a whole
 * second), so a change made in the same tick as a read leaves the times as they were. Nothing
 * read while its change time is that recent is trusted later (the same rule git applies to its
 * index): it is read again on the next listing, until its times are older than `SETTLE_MS`.
 */
import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { EXCLUDED_DIRS, MANIFEST_NAMES, pathBelow, type RootIdentity } from '../bundle/index.js';

/** The one file name the extension knows a skill by. */
export const SERVED_SKILL_MD = 'SKILL.md';

/** Names that make a folder a skill (a SKILL.md, or a skill.contract.v1 manifest to convert). */
export const SKILL_FILE_NAMES: ReadonlySet<string> = new Set([SERVED_SKILL_MD, ...MANIFEST_NAMES]);

/**
 * What says a file (or directory) is the one that was read. Times are the milliseconds node's
 * plain stat gives (a resolution of a quarter of a microsecond today), not BigInt nanoseconds:
 * a BigInt stat costs half as much again and most of a listing's garbage, and the settle rule
 * below makes finer times unnecessary (a change after a trusted read is stamped at least
 * `SETTLE_MS` later than the times kept).
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** Milliseconds after its last change before a timestamp is trusted to show the next change. */
export const SETTLE_MS = 2_000;

/** Milliseconds since the epoch; passed in so that the core never reads the clock itself. */
export type Clock = () => number;

export function identityOf(st: Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** True when the file stat'ed is the one of `b` (a Stats is an identity and more). */
export function sameIdentity(a: FileIdentity | Stats, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * The identity of no file: what is kept for a path that did not exist (a skill's root
 * `.skillignore` when it has none), so that a file appearing there is a change. No stat has it.
 */
export const ABSENT: FileIdentity = Object.freeze({ dev: -1, ino: -1, size: -1, mtimeMs: -1, ctimeMs: -1 });

/** True when what is at a path now (`undefined`: nothing) is `identity`, ABSENT included. */
export function stillIs(now: FileIdentity | Stats | undefined, identity: FileIdentity): boolean {
  return sameIdentity(now ?? ABSENT, identity);
}

/** A folder to serve: where it is, its path in the namespace, and its name in findings. */
export interface SkillFolder {
  /** The root it was found under: `dir` itself, or a folder below it reached through no link. */
  readonly base: string;
  /** The directory `base` must still be when the folder is opened (served-roots.ts). */
  readonly baseId?: RootIdentity;
  readonly dir: string;
  readonly path: string;
  readonly label: string;
}

interface KeptDir {
  readonly identity: FileIdentity;
  readonly entries: Dirent[];
  /** False while the directory's change time is too recent to show a later change. */
  readonly settled: boolean;
  /** The listing pass that last checked it. */
  pass: number;
  /** `entries` by name, made when first asked for. */
  byName?: ReadonlyMap<string, Dirent>;
}

/** At most this many directories are walked under one root looking for skills. */
const MAX_WALKED_DIRS = 100_000;

/** Passes after which a directory no pass used is dropped (a folder removed, a path never asked again). */
const KEEP_PASSES = 64;

/**
 * The directories and file stats of the listings, for one server. `begin()` starts a listing
 * pass: within a pass each directory is checked and each file stat'ed once, however many skills
 * (an outer one and those nested in it) and walks use it.
 */
export class ServedWalker {
  readonly #dirs = new Map<string, KeptDir>();
  readonly #stats = new Map<string, Stats>();
  #pass = 0;
  /** When the current pass began (the injected clock); NaN before the first. */
  #passAt = Number.NaN;
  #version = 0;

  constructor(readonly now: Clock) {}

  /** The current pass, counted from 1 (0 before the first). */
  get pass(): number {
    return this.#pass;
  }

  /**
   * Changes whenever an answer of the walker may: at each pass, and when a directory listed this
   * pass is listed again with another identity (a swap seen by a walk through handles).
   */
  get version(): number {
    return this.#version;
  }

  /** Milliseconds since the current pass began (NaN before the first, negative if the clock went back). */
  passAge(): number {
    return this.now() - this.#passAt;
  }

  begin(): void {
    this.#pass++;
    this.#version++;
    this.#passAt = this.now();
    this.#stats.clear();
    if (this.#pass % KEEP_PASSES === 0) for (const [path, d] of this.#dirs) if (d.pass < this.#pass - KEEP_PASSES) this.#dirs.delete(path);
  }

  /**
   * Begins a pass unless the current one began less than `ms` ago, whose checks are then shared.
   * For reads of single files only (served-catalogue.ts says why that is safe): a listing always
   * begins its own pass. A clock that went back begins a new pass.
   */
  beginWithin(ms: number): void {
    const age = this.passAge();
    if (!(age >= 0 && age < ms)) this.begin();
  }

  /**
   * True when a change after now would change these times (see the module comment). The change
   * time is the one to test: every write sets it to the present, and no call sets it otherwise.
   */
  settled(id: FileIdentity): boolean {
    return id.ctimeMs < this.now() - SETTLE_MS;
  }

  /** The file's own stat (links not followed), once a pass. */
  lstat(path: string): Stats {
    let st = this.#stats.get(path);
    if (st === undefined) {
      st = lstatSync(path);
      this.#stats.set(path, st);
    }
    return st;
  }

  /** The file's own stat (links not followed), once a pass; undefined when there is none. */
  lstatIfAny(path: string): Stats | undefined {
    let st = this.#stats.get(path);
    if (st === undefined) {
      st = lstatSync(path, { throwIfNoEntry: false });
      if (st !== undefined) this.#stats.set(path, st);
    }
    return st;
  }

  /**
   * Whether the file at `path` (links not followed) is still `identity` (ABSENT: still none).
   * Not kept for the pass: the stat is garbage at once (a pass over 10,000 files would otherwise
   * keep 10,000 of them).
   */
  unchanged(path: string, identity: FileIdentity): boolean {
    return stillIs(this.#stats.get(path) ?? lstatSync(path, { throwIfNoEntry: false }), identity);
  }

  /**
   * A directory's entries: kept ones while its identity is unchanged and settled, else read
   * again. Stat'ed before it is read, so what is kept is never newer than the identity kept with
   * it. Followed like `readdir` follows (a root given as a link); the walks never enter a link.
   */
  readdir(path: string): Dirent[] {
    const kept = this.#dirs.get(path);
    if (kept !== undefined && kept.pass === this.#pass) return kept.entries;
    return this.listedAs(path, identityOf(statSync(path)), path);
  }

  /**
   * The entries of the directory opened as `at` (a handle's path, served-handles.ts), whose
   * identity (its fstat) is `identity`, kept under `path`, where it was reached: kept ones only
   * while that very identity is kept with them, even within a pass (a listing by path this pass
   * may have read whatever a link there led to).
   */
  listedAs(path: string, identity: FileIdentity, at: string): Dirent[] {
    const kept = this.#dirs.get(path);
    if (kept !== undefined && (kept.pass === this.#pass || kept.settled) && sameIdentity(kept.identity, identity)) {
      kept.pass = this.#pass;
      return kept.entries;
    }
    const entries = readdirSync(at, { withFileTypes: true });
    if (kept?.pass === this.#pass) this.#version++;
    this.#dirs.set(path, { identity, entries, settled: this.settled(identity), pass: this.#pass });
    return entries;
  }

  /** The entry `name` of directory `dir` (as `readdir` gives it this pass), or undefined. */
  #entry(dir: string, name: string): Dirent | undefined {
    const entries = this.readdir(dir);
    const kept = this.#dirs.get(dir);
    if (kept === undefined) return entries.find((e) => e.name === name);
    // Indexed once per kept listing: a directory of many files is not scanned on every read.
    let byName = kept.byName;
    if (byName === undefined) kept.byName = byName = new Map(entries.map((e) => [e.name, e]));
    return byName.get(name);
  }

  /** The identity a directory was last read with, when it was read this pass and is settled. */
  dirIdentity(path: string): FileIdentity | undefined {
    const kept = this.#dirs.get(path);
    return kept !== undefined && kept.pass === this.#pass && kept.settled ? kept.identity : undefined;
  }

  /**
   * Every folder holding a SKILL.md or a skill manifest under `root` (absolute), nested ones
   * included, with its path below the root; the root itself when it holds one (its path is then
   * its own name). Links and the directories a bundle never includes (.git, node_modules,
   * .skillctl) are not entered. In path order. `baseId`: the root's identity, for the folders' reads.
   */
  findSkillFolders(root: string, label: string, baseId?: RootIdentity): SkillFolder[] {
    const at = baseId !== undefined ? { base: root, baseId } : { base: root };
    const out: SkillFolder[] = [];
    const stack: string[] = [''];
    let walked = 0;
    while (stack.length > 0 && walked++ < MAX_WALKED_DIRS) {
      const rel = stack.pop() as string;
      const dir = rel === '' ? root : pathBelow(root, rel);
      let entries: Dirent[];
      try {
        entries = this.readdir(dir);
      } catch {
        continue;
      }
      if (entries.some((e) => SKILL_FILE_NAMES.has(e.name) && e.isFile())) out.push({ ...at, dir, path: rel === '' ? basename(root) : rel, label: rel === '' ? label : `${label}/${rel}` });
      for (const e of entries) if (e.isDirectory() && !EXCLUDED_DIRS.has(e.name)) stack.push(rel === '' ? e.name : `${rel}/${e.name}`);
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * The folders under `root` that `findSkillFolders` would give for each leading run of the
   * segments of `path`, found without walking the root: entry `k` for the first `k + 1`
   * segments. Entry 0 starts with the root itself when the first segment is its name; then each
   * entry holds the folder its run names below the root, if every directory down to it is one
   * the walk enters (a real directory, not a link, not excluded). The result ends where the path
   * leaves the tree: a run past its end names no folder.
   *
   * One walk down for every run: a read tries each split of a URI into a skill path and a file
   * path, and a walk from the root for each split made a file 1,000 directories deep cost half a
   * million steps (9 s).
   */
  skillFoldersAlong(root: string, label: string, path: string, baseId?: RootIdentity): SkillFolder[][] {
    const out: SkillFolder[][] = [];
    const at = baseId !== undefined ? { base: root, baseId } : { base: root };
    const holdsSkill = (dir: string): boolean => {
      try {
        return this.readdir(dir).some((e) => SKILL_FILE_NAMES.has(e.name) && e.isFile());
      } catch {
        return false;
      }
    };
    const slash = path.indexOf('/');
    const first = slash < 0 ? path : path.slice(0, slash);
    const self: SkillFolder[] = first === basename(root) && holdsSkill(root) ? [{ ...at, dir: root, path: first, label }] : [];
    let dir = root;
    // Segment by segment, not split at once: a path that leaves the tree early then costs its
    // first segments, not its length.
    for (let start = 0; ; ) {
      const end = path.indexOf('/', start);
      const seg = path.slice(start, end < 0 ? undefined : end);
      if (seg === '' || seg === '.' || seg === '..' || EXCLUDED_DIRS.has(seg)) break;
      // The entry as its directory lists it (the type readdir gives is the lstat's: a link is a
      // link): checked this pass with the directory's stat, so reads that share a pass share it.
      try {
        if (this.#entry(dir, seg)?.isDirectory() !== true) break;
      } catch {
        break;
      }
      dir = join(dir, seg);
      const run = end < 0 ? path : path.slice(0, end);
      out.push(holdsSkill(dir) ? [{ ...at, dir, path: run, label: `${label}/${run}` }] : []);
      if (end < 0) break;
      start = end + 1;
    }
    if (self.length > 0) out[0] = [...self, ...(out[0] ?? [])];
    return out;
  }
}
