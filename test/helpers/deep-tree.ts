/**
 * A chain of folders deeper than any path the system opens (PATH_MAX, 4096 bytes), made and
 * removed without ever naming a path that long: chains of `STEP` folders are made one by one
 * and moved into each other (a rename names only the short path of the folder it moves into).
 * `rm -r` (Node's too) names each file by its whole path, so the chain is taken apart again the
 * same way before it is removed.
 */
import { mkdir, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders per chain: short paths keep each step cheap (making or removing a chain of n folders by path costs n² lookups). */
const STEP = 100;

const chain = (n: number): string => join(...Array.from({ length: n }, () => 'a'));

/** Makes `top` and a chain of `STEP - 1` folders `a` in it, a level at a time (recursive mkdir is several times slower). */
async function makeChain(top: string): Promise<void> {
  for (let k = 0; k < STEP; k++) await mkdir(join(top, chain(k)));
}

/** Removes `top` and the chain of `STEP - 1` folders in it, deepest first. */
async function removeChain(top: string): Promise<void> {
  for (let k = STEP - 1; k >= 0; k--) await rmdir(join(top, chain(k)));
}

/**
 * Makes `depth` folders named `a`, one in another, under `dir` (which must exist), with the file
 * `f` holding `x` in the deepest. `depth` is a multiple of 100.
 */
export async function deepChain(dir: string, depth: number): Promise<void> {
  const parts = depth / STEP;
  // The deepest part first: it gets the file, then each part above it is made and the part below moved in.
  await makeChain(join(dir, 'part-0'));
  await writeFile(join(dir, 'part-0', chain(STEP - 1), 'f'), 'x');
  for (let i = 1; i < parts; i++) {
    await makeChain(join(dir, `part-${i}`));
    await rename(join(dir, `part-${i - 1}`), join(dir, `part-${i}`, chain(STEP)));
  }
  await rename(join(dir, `part-${parts - 1}`), join(dir, 'a'));
}

/** Removes a chain `deepChain` made under `dir`, 100 folders at a time. */
export async function removeDeepChain(dir: string, depth: number): Promise<void> {
  for (let i = depth / STEP - 1; i > 0; i--) {
    await rename(join(dir, chain(STEP + 1)), join(dir, 'rest'));
    await removeChain(join(dir, 'a'));
    await rename(join(dir, 'rest'), join(dir, 'a'));
  }
  await unlink(join(dir, chain(STEP), 'f'));
  await removeChain(join(dir, 'a'));
}
