/**
 * What one server keeps between listings of its skills: each file's digest by its absolute path
 * and identity (device, inode, size, modification and change times; any change re-hashes
 * it), and each skill's entry by the paths and identities of all its files, so an
 * unchanged skill is not read, parsed or hashed again. Only settled identities are kept (see
 * served-walk.ts): a file changed in the tick it was hashed in is hashed again.
 *
 * For a read of one file, a skill's last entry also serves while its shape is unchanged: every
 * directory of it, and the files that decide what it is (SKILL.md, and the root .skillignore or
 * its absence, listed or not). The read then checks the file itself against the entry
 * (served-read.ts), so a file edited in place is caught there, and the caller lists the skill
 * afresh.
 *
 * A digest is kept only while a kept skill lists its file or a listing uses it: at the end of
 * each listing, and of each read that listed a skill afresh, the others are dropped (a file
 * deleted or renamed, a skill removed), so a long-running server keeps the digests of the files
 * it serves, not of every file it ever hashed.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import type { IdentityChecker } from './served-check.js';
import type { ServedSkill } from './served-model.js';
import { sameIdentity, stillIs, type FileIdentity, type ServedWalker } from './served-walk.js';

/** A listed path and the identity it had. */
export interface PathIdentity {
  readonly path: string;
  readonly identity: FileIdentity;
}

export interface KeptSkill {
  /**
   * Every file, its path relative to the skill, and the root .skillignore (ABSENT when there is
   * none) even when it ignores itself: its rules decide the others (served.ts).
   */
  readonly files: readonly PathIdentity[];
  /** The same files, absolute. */
  readonly paths: readonly string[];
  readonly skill: ServedSkill;
  /** Absolute paths: the skill's directories (stat) and shaping files (lstat); undefined when it may not serve reads unchecked. */
  readonly shape?: { readonly dirs: readonly PathIdentity[]; readonly files: readonly PathIdentity[] };
  /** Its id with the checker, when the checker checks its files. */
  readonly checkId?: number;
}

/** The skills whose files were all found unchanged in one pass: checked here, or by the checker (by id). */
interface PassChecks {
  readonly pass: number;
  readonly here: ReadonlySet<KeptSkill>;
  readonly elsewhere: ReadonlySet<number>;
}

function sameList(a: readonly PathIdentity[], b: readonly PathIdentity[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as PathIdentity;
    const y = b[i] as PathIdentity;
    if (x.path !== y.path || !sameIdentity(x.identity, y.identity)) return false;
  }
  return true;
}

/** A kept digest, with the walker's pass that last used it. */
interface KeptDigest {
  readonly identity: FileIdentity;
  readonly digest: Sha256Digest;
  pass: number;
}

export class DigestCache {
  readonly #digests = new Map<string, KeptDigest>();
  readonly #skills = new Map<string, KeptSkill>();
  /** Refused folders by key: the files (with the root .skillignore) and the findings. */
  readonly #refused = new Map<string, { readonly files: readonly PathIdentity[]; readonly diagnostics: readonly Diagnostic[] }>();
  #checked: PassChecks | undefined;
  /**
   * The walker's version (its pass) in which each skill's shape was last found unchanged. While
   * it holds the walker's answers do not change, so neither does the finding: the reads that
   * share a pass (a walk of 10,000 directories) check a skill's shape once, not once each.
   */
  readonly #shapedIn = new WeakMap<KeptSkill, number>();
  /** How many kept skills list each file (a nested skill's files are its outer skill's too). */
  readonly #owners = new Map<string, number>();
  /**
   * Files whose digests may have no owner: kept for a skill that is not kept itself, or listed by
   * a skill that was dropped or listed again without them. Only these are looked at by `prune`,
   * so a listing that changed one skill prunes that skill's files, not all 10,000.
   */
  readonly #loose = new Set<string>();

  /** `checker`: another thread that checks a share of the kept skills' files at each listing (served-check.ts). */
  constructor(
    readonly walker: ServedWalker,
    readonly checker?: IdentityChecker,
  ) {}

  digest(file: string, identity: FileIdentity): Sha256Digest | undefined {
    const e = this.#digests.get(file);
    if (e === undefined || !sameIdentity(e.identity, identity)) return undefined;
    e.pass = this.walker.pass;
    return e.digest;
  }

  /** Keeps a digest when its identity is settled; says whether it did. */
  keepDigest(file: string, identity: FileIdentity, digest: Sha256Digest): boolean {
    if (!this.walker.settled(identity)) return false;
    this.#digests.set(file, { identity, digest, pass: this.walker.pass });
    if (!this.#owners.has(file)) this.#loose.add(file);
    return true;
  }

  /** The files whose digests are kept (absolute paths). */
  digestPaths(): string[] {
    return [...this.#digests.keys()];
  }

  /**
   * Drops every digest no kept skill lists and the current pass did not use (a file deleted or
   * renamed, a skill removed): run at the end of a listing (after `retain`) and of a read that
   * listed a skill. A digest of a skill that is not kept itself (a file in it too recent to
   * trust) stays while the passes that read that skill use it.
   */
  prune(): void {
    for (const file of this.#loose) {
      if (!this.#owners.has(file)) {
        // Used by this pass, for a skill not kept: looked at again by the next prune.
        if (this.#digests.get(file)?.pass === this.walker.pass) continue;
        this.#digests.delete(file);
      }
      this.#loose.delete(file);
    }
  }

  /** Counts `paths` as listed by one more kept skill (`by` 1) or one fewer (`by` -1). */
  #own(paths: readonly string[], by: 1 | -1): void {
    for (const path of paths) {
      const n = (this.#owners.get(path) ?? 0) + by;
      if (n > 0) this.#owners.set(path, n);
      else {
        this.#owners.delete(path);
        this.#loose.add(path);
      }
    }
  }

  /**
   * Why the folder under `key` was last refused, if its files are the same paths with the same
   * identities: a refused folder was read again at every listing, a contract bundle validated
   * whole (a gigabyte beside it hashed each time) and a SKILL.md read whole (200 of 4 MiB, 800 MB
   * a listing). A refusal is the safe side: keeping it serves nothing.
   */
  refusal(key: string, files: readonly PathIdentity[]): readonly Diagnostic[] | undefined {
    const e = this.#refused.get(key);
    return e !== undefined && sameList(e.files, files) ? e.diagnostics : undefined;
  }

  /** Keeps a refusal (settled identities only, as the caller checks), replacing the folder's last. */
  keepRefusal(key: string, files: readonly PathIdentity[], diagnostics: readonly Diagnostic[]): void {
    this.#refused.set(key, { files, diagnostics });
  }

  /** The skill last read under `key`, if its files are the same paths with the same identities. */
  skill(key: string, files: readonly PathIdentity[]): ServedSkill | undefined {
    const e = this.#skills.get(key);
    return e !== undefined && sameList(e.files, files) ? e.skill : undefined;
  }

  keepSkill(key: string, kept: KeptSkill): void {
    // Counted before the last entry is dropped: a file both list is never taken for unowned.
    this.#own(kept.paths, 1);
    this.#drop(key);
    const checkId = kept.shape !== undefined ? this.checker?.add(kept.paths, kept.files.map((f) => f.identity)) : undefined;
    this.#skills.set(key, checkId !== undefined ? { ...kept, checkId } : kept);
  }

  /**
   * Drops every skill kept under a key not in `keys`, a listing's folders: a folder the walk no
   * longer finds (removed, moved, or no longer holding a skill file) is not read again, yet its
   * kept files would be checked at every listing, on the checker's thread too.
   */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.#skills.keys()) if (!keys.has(key)) this.#drop(key);
    for (const key of this.#refused.keys()) if (!keys.has(key)) this.#refused.delete(key);
  }

  #drop(key: string): void {
    const e = this.#skills.get(key);
    if (e === undefined) return;
    if (e.checkId !== undefined) this.checker?.remove(e.checkId);
    this.#skills.delete(key);
    this.#own(e.paths, -1);
  }

  /**
   * The per-file checks of a listing, made before its skills are read: the checker's share on
   * its thread while this one runs `between` (the walk of the directories) and then checks the
   * rest. Holds for the walker's current pass only. A checker that fails answers for nothing.
   */
  async checkFiles<T>(between: () => T): Promise<T> {
    const answer = this.checker?.check();
    const result = between();
    const here = new Set<KeptSkill>();
    for (const e of this.#skills.values()) {
      if (e.checkId !== undefined || e.shape === undefined) continue;
      if (this.#filesUnchanged(e)) here.add(e);
    }
    // Waited for only now, after this thread's own work: an answer that came in meanwhile is
    // queued, and a walk that took long must not make the checker look stuck.
    const elsewhere = answer !== undefined ? await answer().catch(() => new Set<number>()) : new Set<number>();
    this.#checked = { pass: this.walker.pass, here, elsewhere };
    return result;
  }

  /** Hands the checker what changed in its sets (at the end of a listing). */
  flush(): void {
    this.checker?.flush();
  }

  /**
   * The skill last read under `key`, for a read of one of its files, while its shape is as it
   * was; undefined when it is not kept, has no shape, or the shape changed (list it afresh).
   */
  shapedSkill(key: string): ServedSkill | undefined {
    const e = this.#skills.get(key);
    return e !== undefined && this.#sameShape(e) ? e.skill : undefined;
  }

  /**
   * The skill last read under `key` when nothing of it changed: its shape, and every file's
   * identity (an lstat each). With its shape unchanged, the walk would list the same paths, so
   * it need not run.
   */
  unchangedSkill(key: string): ServedSkill | undefined {
    const e = this.#skills.get(key);
    if (e === undefined) return undefined;
    // Every file (the shaping ones among them) checked already in this pass: the directories remain.
    const c = this.#checked;
    if (c !== undefined && c.pass === this.walker.pass && (c.here.has(e) || (e.checkId !== undefined && c.elsewhere.has(e.checkId)))) {
      return this.#sameDirs(e) ? e.skill : undefined;
    }
    if (!this.#sameShape(e)) return undefined;
    return this.#filesUnchanged(e) ? e.skill : undefined;
  }

  #filesUnchanged(e: KeptSkill): boolean {
    try {
      for (let i = 0; i < e.paths.length; i++) if (!this.walker.unchanged(e.paths[i] as string, (e.files[i] as PathIdentity).identity)) return false;
    } catch {
      return false;
    }
    return true;
  }

  #sameDirs(e: KeptSkill): boolean {
    if (e.shape === undefined) return false;
    try {
      for (const d of e.shape.dirs) {
        this.walker.readdir(d.path);
        const now = this.walker.dirIdentity(d.path);
        if (now === undefined || !sameIdentity(now, d.identity)) return false;
      }
    } catch {
      return false;
    }
    return true;
  }

  #sameShape(e: KeptSkill): boolean {
    const version = this.walker.version;
    if (this.#shapedIn.get(e) === version) return true;
    if (e.shape === undefined || !this.#sameDirs(e)) return false;
    try {
      // Kept for the pass (walker.lstat): the listing's check of every file that follows, which
      // includes these, then costs no second stat. A .skillignore kept as ABSENT must still be.
      for (const f of e.shape.files) if (!stillIs(this.walker.lstatIfAny(f.path), f.identity)) return false;
    } catch {
      return false;
    }
    if (this.walker.version === version) this.#shapedIn.set(e, version);
    return true;
  }

  /** Drops what is kept of a file and of the skill under `key`: a read found them not to match. */
  forget(key: string, file?: string): void {
    this.#drop(key);
    if (file !== undefined) this.#digests.delete(file);
  }
}
