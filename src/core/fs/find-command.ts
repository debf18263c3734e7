/**
 * Which executable a command names. Commands are compared by the absolute path they resolve to
 * through the run's PATH, lexically, without following symlinks: on a multi-call system
 * (busybox) `ls` and `rm` are links to one binary, and granting one must not grant the other.
 *
 * Following the links is an extra refusal, not a change of identity: a program whose real path
 * lies where the policy lets skills write (`/usr/local/bin/python3 -> /home/u/tools/python3`
 * with fs.write granting /home/u, or an exec rule naming `/proj/scripts/lint.sh` with fs.write
 * granting /proj) is what one skill rewrites and a later run, or skillctl itself outside every
 * sandbox (bwrap, setpriv, prlimit, an interpreter's version probe), then starts. So is one whose
 * real path lies outside but whose way there passes through an entry inside a write root (a link
 * `/usr/local/bin/bwrap -> /home/u/tools/bwrap -> /usr/bin/bwrap`): the path checked is not the
 * path started, since a skill points that link elsewhere, and a run's programs are looked up once
 * and started for each of its attempts (and other runs go on meanwhile).
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, posix } from 'node:path';
import { walkPath } from './path-walk.js';
import { within } from './within.js';

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

/**
 * `reason` completes "the command …". `writable` is set when the program was found but its real
 * path lies inside that write root: the caller refuses with its own code.
 */
export type CommandLookup =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string; readonly writable?: { readonly path: string; readonly real: string; readonly root: string } };

export interface LookupOptions {
  /**
   * Real paths where skills may write (the policy's fs.write, all of it): a program found whose
   * real path lies inside one, or whose way there passes through one, is refused. Default: none.
   */
  readonly writable?: readonly string[];
}

/**
 * Every entry the resolution of the absolute `path` goes through, each named by its real
 * directory: the directories and links of the path, and of each link's target in turn, to the
 * file itself (path-walk.ts).
 */
async function entriesOnTheWay(path: string): Promise<{ readonly entry: string; readonly link: boolean }[]> {
  const seen: { entry: string; link: boolean }[] = [];
  await walkPath(path, (step) => {
    seen.push({ entry: step.entry, link: step.kind === 'link' });
    return undefined;
  });
  return seen;
}

/**
 * The refusal of a found program whose real path lies inside a write root, or whose way there
 * passes through an entry inside one (a link a skill can point elsewhere), or undefined.
 */
async function plantable(path: string, writable: readonly string[]): Promise<CommandLookup | undefined> {
  if (writable.length === 0) return undefined;
  const real = await realpath(path).catch(() => path);
  const root = writable.find((w) => within(real, w));
  if (root !== undefined) {
    const via = real === path ? '' : ` (through a symlink, to ${real})`;
    return { ok: false, reason: `resolves to ${path}${via}, inside the fs.write path ${root}, where a skill may have rewritten it`, writable: { path, real, root } };
  }
  // Named by the link when there is one (what a skill would point elsewhere), else the first entry.
  const inside = (await entriesOnTheWay(path)).flatMap(({ entry, link }) => {
    const on = writable.find((w) => within(entry, w));
    return on === undefined ? [] : [{ entry, link, on }];
  });
  const first = inside.find((x) => x.link) ?? inside[0];
  if (first === undefined) return undefined;
  return { ok: false, reason: `resolves to ${path} through ${first.entry}, inside the fs.write path ${first.on}, which a skill may point elsewhere (it leads to ${real} now)`, writable: { path, real, root: first.on } };
}

/**
 * The absolute path of `command`: an absolute path as it is (normalised; `..` refused), a bare
 * name through the absolute directories of `pathEnv` (relative PATH entries are ignored, so the
 * working directory can never supply a command). A relative path with a slash is refused. A
 * program found whose real path is inside `opts.writable` is refused, not passed over for the
 * next PATH entry: the first match is what the policy's PATH names (and what the user's shell
 * runs), and running another one silently would change which program an exec rule grants.
 */
export async function lookupCommand(command: string, pathEnv: string, opts: LookupOptions = {}): Promise<CommandLookup> {
  const writable = opts.writable ?? [];
  if (command === '' || CONTROL.test(command)) return { ok: false, reason: 'is empty or contains a control character' };
  if (command.includes('/')) {
    if (!isAbsolute(command)) return { ok: false, reason: 'is a relative path (give a bare name or an absolute path)' };
    if (command.split('/').some((s) => s === '..' || s === '.')) return { ok: false, reason: 'has dot segments' };
    const normal = posix.normalize(command);
    if (!(await isExecutableFile(normal))) return { ok: false, reason: 'is not an executable file' };
    return (await plantable(normal, writable)) ?? { ok: true, path: normal };
  }
  for (const dir of pathEnv.split(':')) {
    if (!isAbsolute(dir)) continue;
    const candidate = posix.normalize(join(dir, command));
    if (await isExecutableFile(candidate)) return (await plantable(candidate, writable)) ?? { ok: true, path: candidate };
  }
  return { ok: false, reason: 'is not found on PATH' };
}
