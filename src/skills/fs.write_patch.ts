/**
 * fs.write_patch: applies a unified diff to files under `base`, all or nothing. Every path is
 * reached through directory handles from `base` (the checked file layer): no symlink is followed
 * on the way or at the end, and every file read or written is judged by the policy as the real
 * path it has. Every hunk is fitted in memory first; then each new content is written to a
 * temporary file beside its target (a stopped run's temporaries are removed by the run); only
 * then, inside one commit that the run's deadline waits for, are the files renamed into place
 * and the deleted ones removed. A failure in the commit restores what it had changed.
 * docs/skills/fs.write_patch.md.
 */
import { posix } from 'node:path';
import { isFailure, type CheckedDir, type FsFailure } from '../core/policy/index.js';
import type { BuiltinContext, BuiltinOutcome, BuiltinSkill } from '../core/run/index.js';
import { notOpened } from './lib/files.js';
import { denied, fail, ok, optStr, runSkill, selfDenied, str } from './lib/outcome.js';
import { applyOps, changed, type FileState } from './lib/patch-apply.js';
import { parseUnifiedDiff, type Reject } from './lib/patch.js';

/** Files larger than this are not patched. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A patched file's place: its directory handle (when that exists) and the directories to create under it. */
interface Place {
  readonly dir: CheckedDir;
  readonly missing: readonly string[];
  readonly name: string;
}

interface Target extends FileState {
  readonly place: Place;
}

function safeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || /[\u0000-\u001f\u007f]/.test(p)) return false;
  return !posix.normalize(p).split('/').includes('..') && !p.split('/').includes('.');
}

const OUTSIDE = (what: string, rel: string): BuiltinOutcome =>
  // Reasons name no path: they go into the audit record, and paths come from the input.
  selfDenied('fs.write', 'SKILL_PATH_OUTSIDE_BASE', `fs.write: ${what}`, `patch ${JSON.stringify(rel)}`);

/** Opens directories from `base` down a relative path, never through a symlink; caches handles by path. */
class Places {
  readonly #dirs = new Map<string, CheckedDir | 'missing'>();
  constructor(private readonly base: CheckedDir) {}

  async of(rel: string): Promise<Place | BuiltinOutcome> {
    const segments = rel.split('/').filter((s) => s !== '');
    const name = segments.pop() as string;
    let dir = this.base;
    let path = '';
    for (const [i, seg] of segments.entries()) {
      path = path === '' ? seg : `${path}/${seg}`;
      const cached = this.#dirs.get(path);
      if (cached === 'missing') return { dir, missing: segments.slice(i), name };
      if (cached !== undefined) {
        dir = cached;
        continue;
      }
      const next = await dir.dir(seg);
      if (isFailure(next)) {
        if (next.kind === 'missing') {
          this.#dirs.set(path, 'missing');
          return { dir, missing: segments.slice(i), name };
        }
        return this.#refusal(dir, seg, next, rel);
      }
      this.#dirs.set(path, next);
      dir = next;
    }
    return { dir, missing: [], name };
  }

  async #refusal(dir: CheckedDir, seg: string, f: FsFailure, rel: string): Promise<BuiltinOutcome> {
    if (f.kind === 'denied') return denied(f.decision, `write ${rel}`);
    const st = await dir.lstat(seg);
    if (!isFailure(st) && st.isSymbolicLink()) return OUTSIDE('a patched path leads through a symlink', rel);
    // A file where a directory is needed: the write fails, and nothing is changed.
    return fail('SKILL_WRITE_FAILED', `writing the patched files failed: ${rel} needs a directory where there is a file`);
  }

  async close(): Promise<void> {
    for (const d of this.#dirs.values()) if (d !== 'missing') await d.close();
  }
}

/** The file's bytes and mode before the patch, read through its directory's handle. */
async function load(rel: string, place: Place): Promise<Target | BuiltinOutcome> {
  const absent: Target = { rel, place, original: null, mode: 0o644, current: null };
  if (place.missing.length > 0) return absent;
  const st = await place.dir.lstat(place.name);
  if (isFailure(st)) return st.kind === 'missing' || st.kind === 'not-dir' ? absent : notOpened(st, `read ${rel}`, rel);
  if (st.isSymbolicLink()) return OUTSIDE('a patched path is a symlink', rel);
  const mode = st.mode & 0o777;
  const file = await place.dir.file(place.name);
  if (isFailure(file)) return file.kind === 'denied' ? denied(file.decision, `read ${rel}`) : { ...absent, original: Buffer.alloc(0), mode, current: undefined };
  let bytes: Buffer;
  try {
    bytes = await file.read(MAX_FILE_BYTES + 1);
  } finally {
    await file.close();
  }
  let text: string | undefined;
  if (bytes.length <= MAX_FILE_BYTES && !bytes.includes(0)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
  }
  return { rel, place, original: bytes, mode, current: text };
}

interface Staged {
  readonly target: Target;
  /** The directory the file goes into, and its temporary file there (for a new content). */
  readonly dir: CheckedDir;
  readonly tmp?: string;
}

/** What staging made: the temporary files, and the directories it created (with their parents). */
interface Work {
  readonly staged: Staged[];
  readonly made: { readonly parent: CheckedDir; readonly name: string; readonly key: string; readonly dir: CheckedDir }[];
}

function writeFailed(detail: string): BuiltinOutcome {
  return fail('SKILL_WRITE_FAILED', `writing the patched files failed: ${detail}`);
}

function describe(f: FsFailure): string {
  return f.kind === 'error' ? f.code : f.kind === 'denied' ? f.decision.reason : f.kind;
}

function failure(f: FsFailure, rel: string): BuiltinOutcome {
  return f.kind === 'denied' ? denied(f.decision, `write ${rel}`) : writeFailed(`${rel}: ${describe(f)}`);
}

/** Creates the missing directories of a place, each registered so that a stopped run removes it. */
async function makePlace(ctx: BuiltinContext, place: Place, work: Work): Promise<CheckedDir | FsFailure> {
  let dir = place.dir;
  let key = dir.real;
  for (const seg of place.missing) {
    key = `${key}/${seg}`;
    const known = work.made.find((m) => m.key === key);
    if (known !== undefined) {
      dir = known.dir;
      continue;
    }
    const next = await dir.makeDir(seg);
    if (isFailure(next)) return next;
    ctx.scratch(next.real, 'dir');
    work.made.push({ parent: dir, name: seg, key, dir: next });
    dir = next;
  }
  return dir;
}

/** Writes every new content to a temporary file beside its target. Nothing is in place yet. */
async function stage(ctx: BuiltinContext, targets: readonly Target[], work: Work): Promise<BuiltinOutcome | undefined> {
  for (const t of targets) {
    if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'the run was stopped before the files were written');
    if (t.current === null) {
      work.staged.push({ target: t, dir: t.place.dir });
      continue;
    }
    const dir = await makePlace(ctx, t.place, work);
    if (isFailure(dir)) return failure(dir, t.rel);
    // Announced before it exists: a run stopped while the file is written still removes it.
    const tmp = await dir.writeTemp(t.place.name, Buffer.from(t.current as string, 'utf8'), t.newMode ?? t.mode, (path) => ctx.scratch(path, 'file'));
    if (typeof tmp !== 'string') return failure(tmp, t.rel);
    work.staged.push({ target: t, dir, tmp });
  }
  return undefined;
}

/** Removes what staging left: temporary files not put in place, then the (empty) directories it made. */
async function discard(work: Work, from = 0): Promise<void> {
  for (const s of work.staged.slice(from)) if (s.tmp !== undefined) await s.dir.remove(s.tmp);
  for (const m of [...work.made].reverse()) await m.parent.removeDir(m.name);
}

/** Puts every staged file in place; on a failure, restores the files already changed. */
async function commit(work: Work): Promise<BuiltinOutcome | undefined> {
  const done: Staged[] = [];
  for (const [i, s] of work.staged.entries()) {
    const failed = s.tmp !== undefined ? await s.dir.rename(s.tmp, s.target.place.name) : await s.dir.remove(s.target.place.name);
    if (failed === undefined || (s.tmp === undefined && failed.kind === 'missing')) {
      done.push(s);
      continue;
    }
    for (const d of done.reverse()) {
      const t = d.target;
      if (t.original === null) {
        await d.dir.remove(t.place.name);
        continue;
      }
      const back = await d.dir.writeTemp(t.place.name, t.original, t.mode);
      if (typeof back === 'string') await d.dir.rename(back, t.place.name);
    }
    await discard(work, i);
    return failure(failed, s.target.rel);
  }
  return undefined;
}

async function apply(ctx: BuiltinContext, base: CheckedDir, diffText: string): Promise<BuiltinOutcome> {
  const parsed = await parseUnifiedDiff(diffText);
  if (!parsed.ok) return fail('SKILL_PATCH_INVALID', parsed.message, { pointer: '/unified_diff' });
  const places = new Places(base);
  try {
    // Every path is reached and checked before any content is read or anything is written.
    const states = new Map<string, Target>();
    for (const op of parsed.ops) {
      for (const rel of [op.from, op.to]) {
        if (rel === null || states.has(rel)) continue;
        if (!safeRelative(rel)) return OUTSIDE('the patch names a path that is not relative and inside base', rel);
        const place = await places.of(rel);
        if (!('dir' in place)) return place;
        const state = await load(rel, place);
        if (!('place' in state)) return state;
        states.set(rel, state);
      }
    }
    const rejects: Reject[] = [];
    const hunks = await applyOps(parsed.ops, states, rejects, MAX_FILE_BYTES);
    if (rejects.length > 0) return ok({ applied: false, files_changed: 0, hunks_applied: 0, rejects });

    const targets = [...states.values()].filter(changed).sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
    // Every target is asked about before anything is made: a refused write must not even leave
    // a new directory behind.
    for (const t of targets) {
      const d = await ctx.policy.checkWrite([t.place.dir.real === '/' ? '' : t.place.dir.real, ...t.place.missing, t.place.name].join('/'));
      if (!d.allowed) return denied(d, `write ${t.rel}`);
    }
    const work: Work = { staged: [], made: [] };
    try {
      const refused = await stage(ctx, targets, work);
      if (refused !== undefined) {
        await discard(work);
        return refused;
      }
      const failed = await ctx.commit(() => commit(work));
      if (failed !== undefined) return failed;
    } finally {
      for (const m of work.made) await m.dir.close();
    }
    return ok({ applied: true, files_changed: targets.length, hunks_applied: hunks, rejects: [] });
  } finally {
    await places.close();
  }
}

export const fsWritePatch: BuiltinSkill = {
  id: 'fs.write_patch',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const diff = str(req, 'unified_diff');
      const base = optStr(req, 'base') ?? '.';
      // The policy answers first: whether `base` exists is no business of a skill denied it.
      const dir = await ctx.files.openDir(base, 'traverse');
      if (isFailure(dir)) return notOpened(dir, `write ${base}`, `base ${base}`);
      try {
        return await apply(ctx, dir, diff);
      } finally {
        await dir.close();
      }
    }),
};
