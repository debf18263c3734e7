/**
 * What a sandbox shows of an interpreter outside the system directories: its installation prefix
 * when that is the interpreter's own, else only the program and the prefix's lib folders.
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { within } from '../../policy/paths.js';
import { inSystemDir } from '../sandbox.js';
import type { Interpreter } from './interpreter.js';

/** `path` by its real path (as given where it cannot be resolved); undefined for none. */
async function realOrNone(path: string | undefined): Promise<string | undefined> {
  return path === undefined || path === '' ? undefined : realpath(path).catch(() => path);
}

/**
 * What the sandbox shows of an interpreter outside the system directories, and the path to start
 * it by. Its installation prefix, read-only (`<prefix>/bin/python3` finds its standard library and
 * libpython in `<prefix>/lib`; a pyenv shim runs `<prefix>/libexec/pyenv`), when that prefix is
 * the interpreter's own: ~/.pyenv, ~/.nvm/versions/node/v22, /opt/python3.12. A prefix that also
 * holds other files is not shown whole: a binary in ~/bin has the home as its prefix, one in
 * ~/.local/bin has ~/.local (keyrings, shell histories), one in the project's bin/ the project,
 * one directly in /opt has `/`. Shown whole, it showed every skill of that runtime the home's
 * ~/.ssh or the project's files, whatever its grant. Then only the program itself and the
 * prefix's lib and lib64 are shown, and it is started by its real path (a link beside it,
 * python3 -> python3.12, is not shown).
 */
export async function interpreterShown(interp: Interpreter, home: string | undefined, work: string | undefined): Promise<{ readonly mounts: string[]; readonly program: string }> {
  if (inSystemDir(interp.real)) return { mounts: [], program: interp.path };
  const prefix = dirname(dirname(interp.real));
  const [realHome, realWork] = [await realOrNone(home), await realOrNone(work)];
  const holdsOthers =
    prefix === '/' || (realHome !== undefined && (within(realHome, prefix) || prefix === join(realHome, '.local'))) || (realWork !== undefined && within(realWork, prefix));
  if (!holdsOthers) return { mounts: [prefix], program: interp.path };
  const libs: string[] = [];
  for (const lib of [join(prefix, 'lib'), join(prefix, 'lib64')]) {
    if (!inSystemDir(lib) && (await stat(lib).then((s) => s.isDirectory(), () => false))) libs.push(lib);
  }
  return { mounts: [interp.real, ...libs], program: interp.real };
}
