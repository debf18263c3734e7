/**
 * skillctl's own directory in the temporary directory, `skillctl-<uid>`: the private copies of
 * bundles (stage.ts) and the egress proxies' sockets (egress/open.ts) are made in it, and every
 * run protects it, whatever its policy (runProtectedPaths). A run's own RUN_SCRATCH_WRITABLE check
 * knows only its own policy's write grants: a skill of another run, under a policy that grants
 * `/tmp`, could edit this run's verified copy or swap its proxy's socket. Protected there too, it
 * is read-only to that skill under bubblewrap (and refused to a built-in by the gate). Every run
 * makes it before its sandbox starts, so no sandbox starts without it there to be protected.
 */
import { chmod, lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';

/** The directory's name under `tmp`: one per user, where the temporary directory is shared. */
export function scratchRoot(tmp: string): string {
  const uid = process.getuid?.();
  return join(tmp, uid !== undefined ? `skillctl-${uid}` : 'skillctl');
}

/**
 * Makes `root` (mode 0700) unless it is there, and checks that it is a directory of this user's
 * that no one else can enter: one another user made first on a shared /tmp (or a link) would let
 * them edit the copies, and is refused (RUN_SCRATCH_UNSAFE), never used.
 */
export async function ensureScratchRoot(root: string): Promise<Diagnostic | undefined> {
  const refuse = (why: string): Diagnostic =>
    diag('RUN_SCRATCH_UNSAFE', `${root}, where bundles are copied for their runs, ${why}: nothing is copied there`, { hint: 'remove it (skillctl makes it afresh), or set TMPDIR to a directory of your own' });
  try {
    await mkdir(root, { mode: 0o700 });
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') return refuse(`cannot be made (${errnoCode(err) ?? 'error'})`);
  }
  const st = await lstat(root).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) return refuse('is not a directory');
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return refuse(`belongs to another user (uid ${st.uid})`);
  // This user's own, made under another umask or opened up by hand: closed again.
  if ((st.mode & 0o077) !== 0) await chmod(root, 0o700);
  return undefined;
}

/**
 * A new folder in `skillctl-<uid>` under `tmp`, for a command's own scratch work that it reads
 * back as trusted (a verified layer unpacked, a git directory it asks): made anywhere else in the
 * temporary directory, a skill of a run whose policy grants that directory can rewrite it between
 * the write and the read. Throws the RUN_SCRATCH_UNSAFE finding when that folder is not safe.
 */
export async function privateScratch(tmp: string, prefix: string): Promise<string> {
  const root = scratchRoot(tmp);
  const unsafe = await ensureScratchRoot(root);
  if (unsafe !== undefined) throw new SkillctlError(unsafe.code, unsafe.message, unsafe.hint !== undefined ? { hint: unsafe.hint } : {});
  return mkdtemp(join(root, prefix));
}
