/**
 * The host's Unix sockets a sandbox must not show. A read-only mount does not stop connect(): a
 * socket shown under a grant, even `fs.read` alone, lets a program drive the service listening
 * there, outside every sandbox (the user's tmux server types into their shell, the systemd user
 * manager's bus starts commands, docker.sock is root, ssh and gpg agents sign, an ssh
 * ControlMaster opens sessions). A socket is not a file to read, so no grant shows one:
 *
 * - the directories where services put their sockets (SERVICE_DIRS, and the user's
 *   XDG_RUNTIME_DIR where it lies elsewhere) are covered with an empty tmpfs where a grant shows
 *   them without naming them (a grant of `/`); a grant of a path inside one is shown on top;
 * - each socket the walk below the grants met (nested-names.ts), and a grant that is itself a
 *   socket, is covered with /dev/null, read-only: connect() there fails with ECONNREFUSED.
 *
 * Looked at before the sandbox is set up, as bwrapArgs itself reads nothing.
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { within } from '../policy/paths.js';

/** Where the host's services listen (/var/run is most often a link to /run, and then left to it). */
export const SERVICE_DIRS: readonly string[] = ['/run', '/var/run'];

/** What a run keeps out of its sandbox so that no program reaches a host service through a socket. */
export interface HostServices {
  /** Sockets found below the grants (NestedNames.sockets). */
  readonly sockets: readonly string[];
  /** SERVICE_DIRS and the user's XDG_RUNTIME_DIR (serviceDirs). */
  readonly dirs: readonly string[];
}

/** SERVICE_DIRS, with `runtimeDir` (the host's XDG_RUNTIME_DIR) when it is an absolute path. */
export function serviceDirs(runtimeDir: string | undefined): string[] {
  return runtimeDir !== undefined && isAbsolute(runtimeDir) && runtimeDir !== '/' ? [...SERVICE_DIRS, runtimeDir] : [...SERVICE_DIRS];
}

/**
 * The mounts that cover `services` in a sandbox holding `grants` (real paths): `dirs`, each a
 * tmpfs (a service directory, by its real path, that a grant holds strictly inside it and no grant
 * names; none inside another one covered); `files`, each /dev/null (a socket, still one, inside a
 * grant, or a grant that is one). A socket gone since the walk is left out: a file mounted over
 * needs its mount point, which bubblewrap would otherwise make on the host, inside the grant. So
 * is one that a grant of `/` holds only through `ownTop`, what the sandbox makes itself (its
 * private /tmp): it is not shown, and a mount point there would tell its name.
 */
export async function serviceCovers(services: HostServices, grants: readonly string[], ownTop: readonly string[] = []): Promise<{ readonly dirs: string[]; readonly files: string[] }> {
  const dirs: string[] = [];
  for (const d of services.dirs) {
    const real = await realpath(d).catch(() => undefined);
    if (real === undefined || real === '/' || dirs.includes(real)) continue;
    const st = await lstat(real).catch(() => undefined);
    if (st?.isDirectory() !== true) continue;
    if (grants.some((g) => g === real) || !grants.some((g) => within(real, g))) continue;
    dirs.push(real);
  }
  const outer = dirs.filter((d) => !dirs.some((o) => o !== d && within(d, o)));
  const files: string[] = [];
  for (const p of new Set([...services.sockets, ...grants])) {
    if (!grants.some((g) => within(p, g) && (g !== '/' || !ownTop.some((t) => within(p, t))))) continue;
    // Under a covered directory it is not shown, unless a grant inside that directory shows it.
    if (outer.some((d) => within(p, d) && !grants.some((g) => within(g, d) && within(p, g)))) continue;
    const st = await lstat(p).catch(() => undefined);
    if (st?.isSocket() === true) files.push(p);
  }
  return { dirs: outer.sort(), files: files.sort() };
}
