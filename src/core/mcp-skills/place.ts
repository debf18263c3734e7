/**
 * Writes verified skills to `<outDir>/<name>/`, all or nothing: each skill is written whole into
 * a scratch folder beside its target, and only when every one was written are they renamed into
 * place (move-into-place.ts undoes the renames done when one fails). A name already taken is a
 * collision (SEP-2640 "Names": an MCP-served skill never silently shadows or replaces a skill of
 * another origin), unless the folder holds the same skill (same server, same URI) from an earlier
 * pull, which is then replaced.
 *
 * The collision check, the renames and the origin write form one read-modify-write of the
 * project, made under its write lock (ORIGINS_LOCK): two pulls at once would otherwise each
 * write the records as they read them, and one pull's records would be lost.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { skillNameKey } from '../agent-skills/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, sha256 } from '../digest/index.js';
import { isSkillctlError } from '../errors.js';
import { entryExists, makeDirs, refuseLinkedDefault, type FileLockOptions } from '../fs/index.js';
import { serverLabel, type ServerAddress } from './connection.js';
import type { PulledSkill } from './fetch-skill.js';
import { moveIntoPlace, type Moved } from './move-into-place.js';
import { originKey, readOrigins, renderOrigins, sameOrigin, writeOrigins, type McpOrigin, type Origins } from './origins.js';
import { beginJournal, endJournal, filesDigest, folderId, journalPending, recoveredDiagnostic } from './pull-journal.js';
import { endNote, notePull } from './leftovers.js';
import { withPullLock } from './pull-lock.js';
import { scratchName, sweepScratch, type ScratchKind } from './scratch.js';

export interface PlaceOptions {
  /** The project root: where the origin records and the write lock are kept and local skills are looked for. */
  readonly root: string;
  /** The folder the skills' folders are written into. */
  readonly outDir: string;
  /** True when `outDir` is the project's default (`.agents/skills`), not one the user named: then no part of it below the root may be a link. */
  readonly defaultOutDir?: boolean;
  readonly server: ServerAddress;
  /**
   * The project's skill folders, relative to `root` (those under its skill roots). Asked before
   * and again under the write lock: another pull may have added one meanwhile.
   */
  localFolders(): Promise<readonly string[]>;
  /** How to wait for the write lock (the process's id, clock and patience). */
  readonly fileLock: FileLockOptions;
}

export interface Placed {
  readonly name: string;
  readonly uri: string;
  /** The skill's folder, absolute. */
  readonly dir: string;
  /** True when it replaced an earlier pull of the same skill. */
  readonly replaced: boolean;
}

export interface PlaceResult {
  readonly ok: boolean;
  readonly placed: readonly Placed[];
  readonly diagnostics: readonly Diagnostic[];
}

function describe(o: McpOrigin | undefined): string {
  return o === undefined ? 'a local skill' : `${o.uri} from ${serverLabel(o.server)}`;
}

/** Why each skill may not be written where it would go; empty when all may. */
async function collisions(skills: readonly PulledSkill[], opts: PlaceOptions, origins: Origins): Promise<{ diagnostics: Diagnostic[]; replacing: Set<string> }> {
  const diagnostics: Diagnostic[] = [];
  const replacing = new Set<string>();
  const local = await opts.localFolders();
  for (const s of skills) {
    const dir = join(opts.outDir, s.name);
    const name = skillNameKey(s.name);
    const key = originKey(opts.root, dir);
    const here = { server: opts.server, uri: s.uri };
    if (await entryExists(dir)) {
      const o = origins[key];
      if (o !== undefined && sameOrigin(o, here)) replacing.add(s.name);
      else {
        diagnostics.push(
          diag('MCP_PULL_NAME_COLLISION', `${key} already holds ${describe(o)}; ${s.uri} is not written over it`, {
            file: s.uri,
            hint: 'pull into another folder with --out, or remove the folder first if it is to be replaced',
          }),
        );
      }
    }
    for (const folder of local) {
      // By the name an agent reads, not the bytes: `ｈｅｌｌｏ` (a warning to validate, which reads
      // it as `hello`) or `Hello` beside a local `hello` is the same skill to an agent.
      if (skillNameKey(basename(folder)) !== name || folder === key) continue;
      const o = origins[folder];
      if (o !== undefined && sameOrigin(o, here)) continue;
      diagnostics.push(
        diag('MCP_PULL_NAME_COLLISION', `the project already has a skill named ${JSON.stringify(s.name)}: ${folder} (${describe(o)})`, {
          file: s.uri,
          hint: 'two skills of one name shadow each other in an agent; rename or remove one of them',
        }),
      );
    }
  }
  return { diagnostics, replacing };
}

/**
 * Writes one skill into its scratch folder, made here (so nothing else is in it), with blocking
 * calls: the pull has nothing else to do by now, and through the thread pool each small file
 * costs three round trips (open, write, close), which dominates a skill of 1,000 files.
 */
function writeSkill(scratch: string, skill: PulledSkill): void {
  mkdirSync(scratch, { mode: 0o755 });
  const made = new Set<string>();
  for (const f of skill.files) {
    const segs = f.path.split('/');
    let dir = scratch;
    for (const seg of segs.slice(0, -1)) {
      dir = join(dir, seg);
      if (made.has(dir)) continue;
      // A directory is made once; a file of its name written before makes this fail (EEXIST).
      mkdirSync(dir);
      made.add(dir);
    }
    // 'wx': a path is created once; two entries landing on one file were refused before.
    writeFileSync(join(dir, segs[segs.length - 1] as string), f.bytes, { flag: 'wx', mode: 0o644 });
  }
}

/** The identity of a scratch folder this pull wrote (pull-journal.ts names each folder by it). */
async function writtenFolder(path: string): Promise<string> {
  const id = await folderId(path);
  if (id === undefined) throw Object.assign(new Error(`${path}, written by this pull, is gone`), { code: 'ENOENT' });
  return id;
}

function originOf(skill: PulledSkill, server: ServerAddress): McpOrigin {
  return {
    server,
    uri: skill.uri,
    files: [...skill.files].map((f) => ({ path: f.path, digest: f.digest, size: f.size })).sort((a, b) => comparePaths(a.path, b.path)),
  };
}

/**
 * Writes every skill or none; records each one's origin. Waits for the write lock as pin does
 * (LOCK_BUSY when it is held too long); a rename or the origin write that fails is thrown once
 * the destination is back as it was. Holding the lock, it first puts right what a pull that died
 * left: a pull stopped between its renames (pull-lock.ts), what dead processes left in
 * `.skillctl/` and the scratch folders they noted there (leftovers.ts), and, in `outDir`, the
 * scratch folders of pulls that died (scratch.ts).
 */
export async function placeSkills(skills: readonly PulledSkill[], opts: PlaceOptions): Promise<PlaceResult> {
  if (opts.defaultOutDir === true) await refuseLinkedDefault(opts.root, opts.outDir);
  // Decided once on the project as read, so a refusal writes nothing, not even the write lock
  // (unless a pull that died left a journal: a folder it half placed is no collision once the
  // lock's next holder has put it right)...
  const early = await collisions(skills, opts, await readOrigins(opts.root));
  if (early.diagnostics.length > 0 && !(await journalPending(opts.root))) return { ok: false, placed: [], diagnostics: early.diagnostics };
  await makeDirs(opts.outDir);
  const tag = randomBytes(6).toString('hex');
  const scratch = (name: string, kind: ScratchKind): string => join(opts.outDir, scratchName(name, kind, opts.fileLock, tag));
  // Where the scratch folders go, for the lock's next holder should this pull die before it
  // removes them (leftovers.ts): a pull into another folder would not look here.
  const note = await notePull(opts.root, opts.outDir, opts.fileLock, tag);
  try {
    // Written before the lock is taken: writing is the slow part, and needs no one else to wait.
    for (const s of skills) writeSkill(scratch(s.name, 'pull'), s);
    return await withPullLock(opts.root, opts.fileLock, async (recovered) => {
      await sweepScratch(opts.outDir, opts.fileLock);
      const noted = recovered === undefined ? [] : [recoveredDiagnostic(opts.root, recovered)];
      // ...and again holding it, on the project as it is now: another pull may have landed.
      const origins = await readOrigins(opts.root);
      const { diagnostics, replacing } = await collisions(skills, opts, origins);
      if (diagnostics.length > 0) return { ok: false, placed: [], diagnostics: [...noted, ...diagnostics] };
      const moves = await Promise.all(
        skills.map(async (s) => ({
          scratch: scratch(s.name, 'pull'),
          dir: join(opts.outDir, s.name),
          ...(replacing.has(s.name) ? { aside: scratch(s.name, 'old') } : {}),
          files: filesDigest(s.files),
          folder: await writtenFolder(scratch(s.name, 'pull')),
        })),
      );
      const next: Record<string, McpOrigin> = { ...origins };
      for (const s of skills) next[originKey(opts.root, join(opts.outDir, s.name))] = originOf(s, opts.server);
      const records = renderOrigins(next);
      await beginJournal(opts.root, opts.fileLock, sha256(records), moves);
      let moved: Moved;
      try {
        moved = await moveIntoPlace(moves);
        try {
          await writeOrigins(opts.root, records, opts.fileLock);
        } catch (err) {
          // Skills in place without their records would read as local skills to the next pull.
          await moved.undo(err);
          throw err;
        }
      } catch (err) {
        // Undone here, the journal has nothing left to do; an undo that failed (OUTPUT_UNWRITABLE)
        // leaves it, and the next holder of the lock tries again.
        if (!isSkillctlError(err)) await endJournal(opts.root);
        throw err;
      }
      // Kept from here: an earlier copy not removed is the journal's to remove.
      await moved.commit();
      await endJournal(opts.root);
      return { ok: true, placed: skills.map((s) => ({ name: s.name, uri: s.uri, dir: join(opts.outDir, s.name), replaced: replacing.has(s.name) })), diagnostics: noted };
    });
  } finally {
    // Whatever did not reach its place (a refusal, a failure, a rename undone) leaves no scratch folder.
    await Promise.all(skills.map((s) => rm(scratch(s.name, 'pull'), { recursive: true, force: true })));
    await endNote(note);
  }
}
