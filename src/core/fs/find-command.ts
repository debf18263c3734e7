/**
 * Which executable a command names. Commands are compared by the absolute path they resolve to
 * through the run's PATH, lexically, without following symlinks: on a multi-call system
 * (busybox) `ls` and `rm` are links to one binary, and granting one must not grant the other.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isAbsolute, join, posix } from 'node:path';

const CONTROL = /[\u0000-\u001f\u007f]/;

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `reason` completes "the command …". */
export type CommandLookup = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

/**
 * The absolute path of `command`: an absolute path as it is (normalised; `..` refused), a bare
 * name through the absolute directories of `pathEnv` (relative PATH entries are ignored, so the
 * working directory can never supply a command). A relative path with a slash is refused.
 */
export async function lookupCommand(command: string, pathEnv: string): Promise<CommandLookup> {
  if (command === '' || CONTROL.test(command)) return { ok: false, reason: 'is empty or contains a control character' };
  if (command.includes('/')) {
    if (!isAbsolute(command)) return { ok: false, reason: 'is a relative path (give a bare name or an absolute path)' };
    if (command.split('/').some((s) => s === '..' || s === '.')) return { ok: false, reason: 'has dot segments' };
    const normal = posix.normalize(command);
    return (await isExecutableFile(normal)) ? { ok: true, path: normal } : { ok: false, reason: 'is not an executable file' };
  }
  for (const dir of pathEnv.split(':')) {
    if (!isAbsolute(dir)) continue;
    const candidate = posix.normalize(join(dir, command));
    if (await isExecutableFile(candidate)) return { ok: true, path: candidate };
  }
  return { ok: false, reason: 'is not found on PATH' };
}
