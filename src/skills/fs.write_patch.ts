/**
 * fs.write_patch: applies a unified diff to files under `base`, all or nothing. Every file is
 * checked with the host policy (write, and read where its content is needed) and must resolve
 * inside `base`; every hunk is fitted in memory first; only when all fit are the files written,
 * each atomically, and a failure while writing restores the files already written.
 * docs/skills/fs.write_patch.md.
 */
import { realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import { errnoCode } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs/index.js';
// Not through policy/index.js, which holds the policy file loader (YAML): skills load with every run.
import { pathWithin } from '../core/policy/scopes.js';
import type { BuiltinContext, BuiltinOutcome, BuiltinSkill } from '../core/run/index.js';
import { openRegular, readUpTo } from './lib/files.js';
import { denied, fail, ok, optStr, runSkill, selfDenied, str } from './lib/outcome.js';
import { applyHunks, parseUnifiedDiff, type FileOp, type Reject } from './lib/patch.js';
import { makeDirs } from '../core/fs/make-dirs.js';

/** Files larger than this are not patched. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

interface FileState {
  readonly rel: string;
  readonly resolved: string;
  /** Bytes on disk before the patch; null when the file does not exist. */
  readonly original: Buffer | null;
  readonly mode: number;
  /** Content after the operations so far; null when absent. undefined: not text. */
  current: string | null | undefined;
  newMode?: number;
}

function safeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || /[\u0000-\u001f\u007f]/.test(p)) return false;
  return !posix.normalize(p).split('/').includes('..');
}

async function loadState(rel: string, resolved: string): Promise<FileState> {
  let mode = 0o644;
  try {
    mode = (await stat(resolved)).mode & 0o777;
  } catch (err) {
    // ENOTDIR: a parent is a file; creating it then fails at write time, and is rolled back.
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { rel, resolved, original: null, mode, current: null };
  }
  const opened = await openRegular(resolved, rel);
  if ('outcome' in opened) return { rel, resolved, original: null, mode, current: undefined };
  let bytes: Buffer;
  try {
    bytes = await readUpTo(opened.fh, MAX_FILE_BYTES + 1);
  } finally {
    await opened.fh.close();
  }
  let text: string | undefined;
  if (bytes.length <= MAX_FILE_BYTES && !bytes.includes(0)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
  }
  return { rel, resolved, original: bytes, mode, current: text };
}

/** Applies one file section to the in-memory states. */
async function applyOp(op: FileOp, states: Map<string, FileState>, rejects: Reject[]): Promise<number> {
  const shown = op.to ?? op.from ?? '';
  if (op.binary) {
    rejects.push({ file: shown, hunk: 0, reason: 'binary_patch', detail: 'binary patches cannot be applied' });
    return 0;
  }
  const target = op.to === null ? undefined : (states.get(op.to) as FileState);
  let text = '';
  if (op.from === null) {
    if (target?.current !== null) {
      rejects.push({ file: shown, hunk: 0, reason: 'file_exists', detail: `${shown} already exists` });
      return 0;
    }
  } else {
    const source = states.get(op.from) as FileState;
    if (source.current === null) {
      rejects.push({ file: op.from, hunk: 0, reason: 'file_missing', detail: `${op.from} does not exist` });
      return 0;
    }
    if (source.current === undefined) {
      rejects.push({ file: op.from, hunk: 0, reason: 'not_text', detail: `${op.from} is not a UTF-8 text file of at most ${MAX_FILE_BYTES} bytes` });
      return 0;
    }
    text = source.current;
    if (op.rename && op.to !== op.from && target !== undefined && target.current !== null) {
      rejects.push({ file: op.to as string, hunk: 0, reason: 'file_exists', detail: `rename target ${op.to} already exists` });
      return 0;
    }
  }
  const applied = await applyHunks(text, op.hunks, shown);
  if (!applied.ok) {
    rejects.push(...applied.rejects);
    return 0;
  }
  if (op.to === null) {
    if (applied.text !== '') {
      rejects.push({ file: shown, hunk: 0, reason: 'delete_mismatch', detail: `${shown} holds more than the diff deletes` });
      return 0;
    }
    (states.get(op.from as string) as FileState).current = null;
    return applied.hunks;
  }
  if (op.rename && op.from !== null && op.from !== op.to) (states.get(op.from) as FileState).current = null;
  (target as FileState).current = applied.text;
  if (op.mode !== undefined) (target as FileState).newMode = op.mode;
  return applied.hunks;
}

function changed(s: FileState): boolean {
  if (s.current === undefined) return false;
  if (s.current === null) return s.original !== null;
  return s.original === null || !Buffer.from(s.current, 'utf8').equals(s.original) || (s.newMode !== undefined && s.newMode !== s.mode);
}

/** Writes every changed file; on failure restores what was written and reports it. */
async function commit(files: readonly FileState[]): Promise<BuiltinOutcome | undefined> {
  const done: FileState[] = [];
  const madeDirs: string[] = [];
  try {
    for (const f of files) {
      if (f.current === null) {
        await rm(f.resolved, { force: true });
      } else {
        const made = await makeDirs(dirname(f.resolved));
        if (made !== undefined) madeDirs.push(made);
        await writeFileAtomic(f.resolved, f.current as string, f.newMode ?? f.mode);
      }
      done.push(f);
    }
    return undefined;
  } catch (err) {
    for (const f of done.reverse()) {
      try {
        if (f.original === null) await rm(f.resolved, { force: true });
        else await writeFileAtomic(f.resolved, f.original, f.mode);
      } catch {
        // best effort: the error below names the failure
      }
    }
    for (const d of madeDirs.reverse()) await rmdir(d).catch(() => undefined);
    return fail('SKILL_WRITE_FAILED', `writing the patched files failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function run(ctx: BuiltinContext, diffText: string, base: string): Promise<BuiltinOutcome> {
  let baseReal: string;
  try {
    baseReal = await realpath(resolve(ctx.cwd, base));
    if (!(await stat(baseReal)).isDirectory()) return fail('SKILL_NOT_A_DIRECTORY', `base ${base} is not a directory`);
  } catch {
    return fail('SKILL_FILE_NOT_FOUND', `base ${base} does not exist`);
  }
  const parsed = await parseUnifiedDiff(diffText);
  if (!parsed.ok) return fail('SKILL_PATCH_INVALID', parsed.message, { pointer: '/unified_diff' });

  // Every path is checked before any content is read or anything is written.
  const states = new Map<string, FileState>();
  for (const op of parsed.ops) {
    for (const rel of [op.from, op.to]) {
      if (rel === null || states.has(rel)) continue;
      // Reasons name no path: they go into the audit record, and paths come from the input.
      if (!safeRelative(rel)) return selfDenied('fs.write', 'SKILL_PATH_OUTSIDE_BASE', 'fs.write: the patch names a path that is not relative and inside base', `patch ${JSON.stringify(rel)}`);
      const abs = join(baseReal, rel);
      const write = await ctx.policy.checkWrite(abs);
      if (!write.allowed) return denied(write, `write ${rel}`);
      if (!pathWithin(write.resolved, baseReal)) {
        return selfDenied('fs.write', 'SKILL_PATH_OUTSIDE_BASE', 'fs.write: a patched path resolves outside base', `patch ${rel} (resolves to ${write.resolved}, base ${baseReal})`);
      }
      if (op.from === rel) {
        const read = await ctx.policy.checkRead(abs);
        if (!read.allowed) return denied(read, `read ${rel}`);
      }
      states.set(rel, await loadState(rel, write.resolved));
    }
  }

  const rejects: Reject[] = [];
  let hunks = 0;
  for (const op of parsed.ops) hunks += await applyOp(op, states, rejects);
  if (rejects.length > 0) return ok({ applied: false, files_changed: 0, hunks_applied: 0, rejects });

  const files = [...states.values()].filter(changed).sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
  if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'the run was stopped before the files were written');
  const failed = await commit(files);
  if (failed !== undefined) return failed;
  return ok({ applied: true, files_changed: files.length, hunks_applied: hunks, rejects: [] });
}

export const fsWritePatch: BuiltinSkill = {
  id: 'fs.write_patch',
  run: (input, ctx) => runSkill(input, async (req) => run(ctx, str(req, 'unified_diff'), optStr(req, 'base') ?? '.')),
};
