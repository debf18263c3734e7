/**
 * Writing a pack's archives: the output directory is made only once there is something to write,
 * and a write that fails takes back what this call did (the archives it wrote, the directories
 * it made), so a failed `pack --out new/dir` leaves no empty directory behind. An archive it
 * replaced is put back: a `--format both` whose `.skill` cannot be written leaves the `.tgz`
 * that was there (a released archive, until the stop of 2026-11-30 removed with the new one).
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { asOutputWrite, makeDirs, removeMadeDirs, writeTempBeside } from '../fs/index.js';

export interface OutputFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** An archive placed by this call, and the file it replaced, kept under a second name to put back. */
interface Placed {
  readonly path: string;
  readonly kept: string | undefined;
  /** A file stood there that could not be kept (no hard links on this file system): the new one stays. */
  readonly replaced: boolean;
}

/** A second name for the regular file at `path`, if one is there; `replaced` when it is but cannot be linked. */
async function keepAside(path: string): Promise<{ kept: string | undefined; replaced: boolean }> {
  const st = await lstat(path).catch(() => undefined);
  if (st === undefined || !st.isFile()) return { kept: undefined, replaced: false };
  const kept = join(dirname(path), `.${basename(path)}.kept-${randomBytes(6).toString('hex')}`);
  return link(path, kept).then(
    () => ({ kept, replaced: true }),
    () => ({ kept: undefined, replaced: true }),
  );
}

/** Puts back what `placed` replaced, or removes what it created. */
async function takeBack(placed: readonly Placed[]): Promise<void> {
  for (const p of placed) {
    if (p.kept !== undefined) await rename(p.kept, p.path).catch(() => undefined);
    else if (!p.replaced) await rm(p.path, { force: true });
  }
}

/**
 * Writes `files` into `outDir`, named `outLabel` in errors (OUTPUT_UNWRITABLE): every archive is
 * written and flushed to a temporary file first (a full disk stops there, nothing replaced), then
 * each is renamed into place; a rename that fails puts back the files the others replaced.
 */
export async function writeOutputs(outDir: string, outLabel: string, files: readonly OutputFile[]): Promise<void> {
  if (files.length === 0) return;
  const made = await asOutputWrite(outLabel, () => makeDirs(outDir));
  const temps: string[] = [];
  const placed: Placed[] = [];
  let pending: string | undefined;
  try {
    for (const f of files) temps.push(await asOutputWrite(f.path, () => writeTempBeside(f.path, f.bytes, 0o644)));
    for (const [i, f] of files.entries()) {
      const aside = await keepAside(f.path);
      pending = aside.kept;
      await asOutputWrite(f.path, () => rename(temps[i] as string, f.path));
      placed.push({ path: f.path, ...aside });
      pending = undefined;
    }
  } catch (err) {
    for (const t of temps) await rm(t, { force: true });
    // The rename that failed left its file in place: only its second name goes.
    if (pending !== undefined) await rm(pending, { force: true });
    await takeBack(placed);
    if (made !== undefined) await removeMadeDirs(outDir, made);
    throw err;
  }
  for (const p of placed) if (p.kept !== undefined) await rm(p.kept, { force: true });
}
