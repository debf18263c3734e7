/**
 * A private copy of a bundle directory for one run. Verifying a bundle where it lies and then
 * running it there is a check followed by a use: a process that can write the bundle (another
 * skill granted the project, say) edits a script after its digest matched the pin and before the
 * runtime reads it, and the edited script runs as the pinned one. So a run first copies the
 * bundle's files into a fresh directory of its own and verifies and runs that copy: what runs is
 * what was verified. The copy holds exactly the files a digest covers (what `pack` would put in
 * an archive), so nothing the digests leave out (`.skillignore`d files, `node_modules`, `.git`)
 * reaches the run either.
 *
 * Copying is itself a use of paths that were listed earlier, so each file is opened without
 * following a link in its last component and without blocking on a FIFO, must be a regular file,
 * and must still lie inside the bundle according to the kernel (/proc/self/fd): a directory of
 * the bundle swapped for a link to elsewhere after the listing makes the run refuse, instead of
 * copying an outside file in where the skill could read it.
 */
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, readlinkSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { dirSource, syncDirOps, type BundleFile } from '../bundle/index.js';
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { within } from '../fs/within.js';

export interface StagedBundle {
  /** The copy's directory: `<scratch>/skillctl-run-XXXXXX/bundle`. */
  readonly dir: string;
  /** Removes the copy and its scratch directory. */
  cleanup(): Promise<void>;
}

/** Why the bundle was not copied: its listing has errors (links, special files, bounds), or a file changed under the copy. */
export type StageRefusal =
  | { readonly kind: 'listing'; readonly diagnostics: readonly Diagnostic[] }
  | { readonly kind: 'changed'; readonly file: string; readonly reason: string }
  | { readonly kind: 'scratch'; readonly reason: string };

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1024 * 1024;
const PROC_FD = process.platform === 'linux';

/** Copies the bundle at `real` (an absolute real path) into a fresh directory inside `scratchDir`. */
export async function stageBundle(real: string, scratchDir: string): Promise<StagedBundle | StageRefusal> {
  const listing = await dirSource(real, undefined, syncDirOps).list();
  if (hasErrors(listing.diagnostics)) return { kind: 'listing', diagnostics: listing.diagnostics };
  return stageListed(real, listing.files, scratchDir);
}

/**
 * Copies the files a listing of `real` found. Whatever happened to them since the listing, a
 * file that is not a regular file inside `real` when it is opened is refused, and then nothing
 * of the copy is left.
 */
export async function stageListed(real: string, files: readonly BundleFile[], scratchDir: string): Promise<StagedBundle | StageRefusal> {
  let scratch: string;
  try {
    scratch = await mkdtemp(join(scratchDir, 'skillctl-run-'));
  } catch (err) {
    return { kind: 'scratch', reason: `no scratch directory in ${scratchDir} (${errnoCode(err) ?? 'error'})` };
  }
  const dir = join(scratch, 'bundle');
  const made = new Set<string>();
  const copied: string[] = [];
  const cleanup = (): Promise<void> => removeCopy(scratch, dir, copied, made);
  try {
    mkdirSync(dir, { mode: 0o700 });
    for (const f of files) {
      const parent = dirname(f.path);
      if (parent !== '.' && !made.has(parent)) {
        mkdirSync(join(dir, parent), { recursive: true, mode: 0o700 });
        // Every level it made, so that the copy's removal finds each.
        for (let d = parent; d !== '.' && !made.has(d); d = dirname(d)) made.add(d);
      }
      const changed = copyListed(real, f.path, f.size, join(dir, f.path), f.mode === '0755' ? 0o755 : 0o644);
      if (changed === undefined) copied.push(f.path);
      else {
        await cleanup();
        return { kind: 'changed', file: f.path, reason: changed };
      }
    }
  } catch (err) {
    await cleanup();
    return { kind: 'scratch', reason: `the copy could not be written in ${scratchDir} (${errnoCode(err) ?? 'error'})` };
  }
  return { dir, cleanup };
}

/**
 * Copies one listed file, at most the size the listing saw (a file grown since then is copied
 * cut short, and its digest then tells). Returns why the file cannot be copied, if it cannot.
 * Errors writing the copy are thrown. Blocking calls: a bundle is mostly a few small files, and a
 * thread-pool round trip per call would cost more than the copy (the reasoning of
 * bundle/dir-ops.ts); nothing else of the run waits on this thread meanwhile.
 */
function copyListed(root: string, rel: string, size: number, to: string, mode: number): string | undefined {
  let src: number;
  try {
    src = openSync(`${root}/${rel}`, READ_FLAGS);
  } catch (err) {
    return `it cannot be opened (${errnoCode(err) ?? 'error'})`;
  }
  try {
    if (!fstatSync(src).isFile()) return 'it is no longer a regular file';
    if (PROC_FD && !within(readlinkSync(`/proc/self/fd/${src}`), root)) return 'it no longer lies inside the bundle';
    const out = openSync(to, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      // Exactly the mode the listing saw, whatever the umask: the execute bit is part of the digest.
      fchmodSync(out, mode);
      const buf = Buffer.allocUnsafe(Math.min(Math.max(size, 1), CHUNK));
      for (let off = 0; off < size; ) {
        const n = readSync(src, buf, 0, Math.min(buf.length, size - off), off);
        if (n === 0) break;
        writeAll(out, buf.subarray(0, n));
        off += n;
      }
    } finally {
      closeSync(out);
    }
    return undefined;
  } finally {
    closeSync(src);
  }
}

/**
 * Removes the copy: what it made, one call each (a recursive removal costs several times more
 * for a few files); anything else found there (a program run without a sandbox may write into
 * its bundle) makes it fall back to removing the whole tree.
 */
async function removeCopy(scratch: string, dir: string, files: readonly string[], dirs: ReadonlySet<string>): Promise<void> {
  try {
    for (const f of files) unlinkSync(join(dir, f));
    for (const d of [...dirs].sort().reverse()) rmdirSync(join(dir, d));
    rmdirSync(dir);
    rmdirSync(scratch);
  } catch {
    await rm(scratch, { recursive: true, force: true });
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
}
