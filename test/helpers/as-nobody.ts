/**
 * skillctl run as a user who is not root, whom no cgroup of skillctl's holds (nor on most hosts):
 * as nobody through setpriv when the tests run as root, else as the user running them. What the
 * limits of such a run are when only rlimits and the sandbox hold them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HANG_GUARD_MS } from './hostile.js';
import { BIN } from './paths.js';

const NOBODY = 65534;

/** The argv prefix that runs a program as a user who is not root, or why none can here. */
export function unprivileged(): { readonly prefix: readonly string[] } | { readonly skip: string } {
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'] : [];
  if (asRoot && spawnSync('setpriv', ['--version']).status !== 0) return { skip: 'root without setpriv: no way to run skillctl as another user' };
  // bubblewrap needs a user namespace for a user who is not root (or to be setuid).
  const probe = spawnSync(prefix[0] ?? 'bwrap', [...prefix.slice(1), ...(asRoot ? ['bwrap'] : []), '--unshare-all', '--ro-bind', '/', '/', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return { skip: `bubblewrap cannot start a sandbox for a user who is not root here: ${(probe.stderr || String(probe.error)).trim()}` };
  return { prefix };
}

/** Gives `root` and everything in it to the user `unprivileged` runs as (nobody), when the tests run as root. */
export function ownForRun(root: string): void {
  if (process.getuid?.() !== 0) return;
  const own = (p: string): void => {
    chownSync(p, NOBODY, NOBODY);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) own(join(p, e));
  };
  own(root);
}

export interface RunAs<T> {
  readonly code: number;
  readonly doc: T;
  readonly stderr: string;
}

/**
 * `skillctl <args> --json` in `cwd`, as the user `prefix` names, with `input` (JSON) on stdin,
 * HOME and TMPDIR in `root` (`home`, `tmp`, which must exist): its JSON answer.
 */
export function skillctlAs<T>(prefix: readonly string[], root: string, cwd: string, args: readonly string[], input: unknown = {}): Promise<RunAs<T>> {
  const argv = [...prefix, process.execPath, BIN, ...args, '--json'];
  // The home, temporary and XDG directories of the user running the tests are not nobody's.
  const unset = new Set(['XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'FORCE_COLOR']);
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !unset.has(name))), HOME: join(root, 'home'), TMPDIR: join(root, 'tmp'), NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      try {
        resolve({ code: code ?? -1, doc: JSON.parse(stdout) as T, stderr });
      } catch {
        reject(new Error(`stdout is not JSON (exit ${code ?? 'killed'}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`));
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}
