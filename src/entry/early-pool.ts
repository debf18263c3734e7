/**
 * `skillctl verify-pins` over a large lock shares its pins out to worker threads (pool.ts). A
 * thread takes longer to boot (a fresh V8 isolate and Node.js bootstrap, 50 ms and more here)
 * than this thread takes to load the CLI and read the lock, and the second core idles meanwhile;
 * so dist/boot.cjs asks this small bundle (dist/early-pool.cjs), before anything else loads,
 * whether to start them at once.
 *
 * The answer is a guess that decides nothing: the command reads and checks the lock itself and
 * takes the workers only for a job the pool would share out (pool.ts); unused ones are stopped,
 * and until then they keep nothing alive. So the guess looks only where a hook or CI job runs
 * verify-pins: the lock named by `--lock`, else `pins/skills.lock.json` in the working directory.
 */
import { statSync } from 'node:fs';
import { LOCK_MARKER } from '../core/fs/project.js';
import { EARLY_LOCK_BYTES, startEarlyWorkers } from './pool.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The lock a plain `verify-pins` invocation reads, or undefined when it reads none from the working tree. */
export function earlyLockPath(argv: readonly string[]): string | undefined {
  if (argv[0] !== 'verify-pins') return undefined;
  let lock: string = LOCK_MARKER;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    // A tree from git (--staged, --rev) is read through git, and help reads nothing.
    if (arg === '--staged' || arg === '--rev' || arg.startsWith('--rev=') || arg === '--help' || arg === '-h' || arg === '--') return undefined;
    if (arg === '--lock') lock = argv[++i] ?? '';
    else if (arg.startsWith('--lock=')) lock = arg.slice('--lock='.length);
  }
  return lock === '' || lock === '-' ? undefined : lock;
}

/** Starts verify-pins' workers now when `argv` is verify-pins over a lock large enough for them. */
export function startEarlyPool(argv: readonly string[], env: Env = process.env): void {
  const lock = earlyLockPath(argv);
  if (lock === undefined) return;
  let st;
  try {
    st = statSync(lock, { throwIfNoEntry: false });
  } catch {
    // Unreadable here is for the command to report; the guess just declines.
    return;
  }
  if (st?.isFile() === true && st.size >= EARLY_LOCK_BYTES) startEarlyWorkers('verify-pins', env);
}
