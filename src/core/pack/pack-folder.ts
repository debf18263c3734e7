/**
 * `skillctl pack DIR --out OUT`: the folder and the output directory checked before anything is
 * made, then packBundle. An archive written into the folder it packs would become one of its
 * files, and the next pack or pin would see a changed bundle: refused on the real paths.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { errnoCode, SkillctlError } from '../errors.js';
import { packBundle, type PackOptions, type PackResult } from './pack.js';

/** The real path `path` has, or would have once made: its deepest existing ancestor resolved, the rest appended. */
async function realPathToBe(path: string): Promise<string> {
  const rest: string[] = [];
  for (let p = resolve(path); ; ) {
    try {
      return join(await realpath(p), ...rest.reverse());
    } catch {
      const up = dirname(p);
      if (up === p) return resolve(path);
      rest.push(basename(p));
      p = up;
    }
  }
}

/** As packBundle's: `outLabel` names the output directory in messages (default: `outDir`). */
export type PackFolderOptions = PackOptions;

/**
 * Packs the folder `dir` (absolute) into `outDir` (absolute), made if missing, but only once there
 * is an archive to write (packBundle): a refused pack leaves no directory behind. Throws
 * BUNDLE_NOT_FOUND when `dir` is not a readable folder, OUTPUT_UNWRITABLE when `outDir` lies
 * inside it or cannot be made; everything about the folder's content is in the result.
 */
export async function packFolder(dir: string, outDir: string, opts: PackFolderOptions = {}): Promise<PackResult> {
  const label = opts.label ?? dir;
  const outLabel = opts.outLabel ?? outDir;
  const isDir = await stat(dir).then(
    (st) => st.isDirectory(),
    (err: unknown) => {
      const code = errnoCode(err);
      throw new SkillctlError('BUNDLE_NOT_FOUND', `${label} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`);
    },
  );
  if (!isDir) throw new SkillctlError('BUNDLE_NOT_FOUND', `${label} is not a directory`);
  // Checked before any directory is made, on the real path it would have.
  const realBundle = await realpath(dir);
  const realOut = await realPathToBe(outDir);
  if (realOut === realBundle || realOut.startsWith(realBundle + sep)) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `${outLabel} is inside ${label}, the folder being packed`, { hint: `write the archive elsewhere, e.g. --out ${join(label, '..')}` });
  }
  return packBundle(dir, outDir, { ...opts, outLabel });
}
