/**
 * Writing a pack's archives: the output directory is made only once there is something to write,
 * and a write that fails takes back what this call did (the archives it wrote, the directories
 * it made), so a failed `pack --out new/dir` leaves no empty directory behind.
 */
import { rm, rmdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { asOutputWrite, makeDirs, writeFileAtomic } from '../fs/index.js';

export interface OutputFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** Removes the directories from `dir` up to `first` (the first one made), each only if empty. */
async function removeMade(dir: string, first: string): Promise<void> {
  const stop = resolve(first);
  for (let d = resolve(dir); ; d = dirname(d)) {
    // Not empty: something else was put there meanwhile, and it is not ours to remove.
    if (!(await rmdir(d).then(() => true, () => false))) return;
    if (d === stop || dirname(d) === d) return;
  }
}

/** Writes `files` (each atomically) into `outDir`, named `outLabel` in errors (OUTPUT_UNWRITABLE). */
export async function writeOutputs(outDir: string, outLabel: string, files: readonly OutputFile[]): Promise<void> {
  if (files.length === 0) return;
  const made = await asOutputWrite(outLabel, () => makeDirs(outDir));
  const written: string[] = [];
  try {
    for (const f of files) {
      await asOutputWrite(f.path, () => writeFileAtomic(f.path, f.bytes));
      written.push(f.path);
    }
  } catch (err) {
    for (const p of written) await rm(p, { force: true });
    if (made !== undefined) await removeMade(outDir, made);
    throw err;
  }
}
