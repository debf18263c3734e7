/**
 * An opened lock: the parsed lock, its project root, and (for a skillctl lock) the trust anchors
 * it pins. Verifiers take this context, so a lock and its keys file are read once however many
 * pins are checked.
 */
import { dirname, join, resolve } from 'node:path';
import { asyncDirOps, type DirOps } from '../bundle/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../digest/index.js';
import { describeRefusal } from '../fs/read-bounded.js';
import { KEYS_MAX_BYTES, loadPublicKeys, type PublicKey } from '../sign/index.js';
import { loadLock, readLockFile, type LockLoad } from './lock.js';
import type { LoadedLock, ProvenactLock, SkillctlLock } from './model.js';
import { lockRoot } from './paths.js';

export const PROVENACT_MIN_SIGNERS = 2;

interface Common {
  /** How the lock is named in diagnostics. */
  readonly lockFile: string;
  /** Directory of the lock file (keys files are found here). */
  readonly lockDir: string;
  /** Project root: sources are relative to it. */
  readonly root: string;
  /** Findings about the lock itself (schema, canonical form) and its trust anchors. */
  readonly diagnostics: readonly Diagnostic[];
  /** The raised floor of `--min-signers`, if any. */
  readonly minSigners: number;
  /** How bundle directories are read (default: the thread pool; `syncDirOps` in worker threads). */
  readonly ops: DirOps;
  /** `root` with symbolic links resolved, when it exists. */
  readonly realRoot?: string;
}

export interface SkillctlLockContext extends Common {
  readonly format: 'skillctl';
  readonly lock: SkillctlLock;
  /** The pinned trust anchors; empty when the lock has none or they failed their digest. */
  readonly keys: ReadonlyMap<string, PublicKey>;
  /** Findings about the keys file alone; a pin that needs signatures fails with them. */
  readonly trustDiagnostics: readonly Diagnostic[];
}

export interface ProvenactLockContext extends Common {
  readonly format: 'provenact';
  readonly lock: ProvenactLock;
}

export type LockContext = SkillctlLockContext | ProvenactLockContext;

export interface OpenLockOptions {
  /** How to name the lock in diagnostics (default: the path). */
  readonly label?: string;
  /** The lock's bytes, when they come from elsewhere than `path` (stdin). */
  readonly bytes?: Uint8Array;
  /**
   * The lock, already loaded and checked by the caller (a worker thread sharing the work of the
   * thread that read it): it is used as it is, and its findings are the caller's to report.
   */
  readonly loaded?: LoadedLock;
  /** Project root, when it is not the directory above the lock's (stdin). */
  readonly root?: string;
  /**
   * Signers required. For a skillctl lock a floor over its own `min_signers` (never lowers it);
   * for a provenact lock the MIN_SIGNERS of its verify script (default 2).
   */
  readonly minSigners?: number;
  /** How verifiers read bundle directories (default `asyncDirOps`). */
  readonly ops?: DirOps;
}

/** The result of opening a lock: a context, or only findings when the lock is unusable. */
export type OpenedLock = { readonly context: LockContext; readonly diagnostics: readonly Diagnostic[] } | { readonly context?: undefined; readonly diagnostics: readonly Diagnostic[] };

async function loadTrust(lock: SkillctlLock, lockDir: string, lockFile: string, ops: DirOps): Promise<{ keys: Map<string, PublicKey>; diagnostics: Diagnostic[] }> {
  const keys = new Map<string, PublicKey>();
  if (lock.keys_file === undefined || lock.keys_digest === undefined) return { keys, diagnostics: [] };
  const label = join(dirname(lockFile), lock.keys_file);
  const read = await ops.readBounded(join(lockDir, lock.keys_file), { maxBytes: KEYS_MAX_BYTES });
  if (!read.ok) return { keys, diagnostics: [diag('KEYS_INVALID', `the keys file cannot be read: ${describeRefusal(read, label)}`, { file: label })] };
  const bytes = read.bytes;
  const actual = sha256(bytes);
  if (actual !== lock.keys_digest) {
    // Changed trust anchors are not used at all: a key added by the change must not verify anything.
    return {
      keys,
      diagnostics: [
        diag('KEYS_DIGEST_MISMATCH', `keys_digest is ${lock.keys_digest} but ${lock.keys_file} hashes to ${actual}`, {
          file: lockFile,
          pointer: '/keys_digest',
          hint: 'if the change to the keys is intended, review it and run skillctl pin --trust-keys',
        }),
      ],
    };
  }
  const loaded = loadPublicKeys(bytes, label);
  return { keys: hasErrors(loaded.diagnostics) ? keys : new Map(loaded.keys), diagnostics: [...loaded.diagnostics] };
}

/**
 * Reads, parses and checks the lock at `path`, and loads the keys file a skillctl lock pins.
 * Throws `LOCK_UNREADABLE` when the file cannot be read.
 */
export async function openLock(path: string, opts: OpenLockOptions = {}): Promise<OpenedLock> {
  const lockFile = opts.label ?? path;
  const load: LockLoad =
    opts.loaded !== undefined ? { loaded: opts.loaded, diagnostics: [] } : opts.bytes !== undefined ? loadLock(opts.bytes, lockFile) : await readLockFile(path, lockFile);
  if (load.loaded === undefined) return { diagnostics: load.diagnostics };
  const lockDir = dirname(resolve(path));
  const root = opts.root ?? lockRoot(path);
  const ops = opts.ops ?? asyncDirOps;
  const realRoot = await ops.realpath(root).catch(() => undefined);
  const floor = opts.minSigners ?? 0;
  if (load.loaded.format === 'provenact') {
    // provenact's verify_pins.sh requires MIN_SIGNERS=2 unless told otherwise.
    const minSigners = opts.minSigners ?? PROVENACT_MIN_SIGNERS;
    const context: ProvenactLockContext = { format: 'provenact', lock: load.loaded.lock, lockFile, lockDir, root, diagnostics: load.diagnostics, minSigners, ops, ...(realRoot !== undefined ? { realRoot } : {}) };
    return { context, diagnostics: context.diagnostics };
  }
  const lock = load.loaded.lock;
  const trust = await loadTrust(lock, lockDir, lockFile, ops);
  const trustDiagnostics = [...trust.diagnostics];
  const needsKeys = lock.min_signers > 0 || floor > 0 || lock.skills.some((p) => p.signers.length > 0);
  if (needsKeys && lock.keys_file === undefined) {
    trustDiagnostics.push(
      diag('KEYS_INVALID', 'the lock requires signatures but names no keys_file', { file: lockFile, pointer: '', hint: 'create keys with skillctl keygen, then pin again' }),
    );
  }
  const context: SkillctlLockContext = {
    format: 'skillctl',
    lock,
    lockFile,
    lockDir,
    root,
    keys: trust.keys,
    trustDiagnostics,
    diagnostics: [...load.diagnostics, ...trustDiagnostics],
    minSigners: Math.max(lock.min_signers, floor),
    ops,
    ...(realRoot !== undefined ? { realRoot } : {}),
  };
  return { context, diagnostics: context.diagnostics };
}
