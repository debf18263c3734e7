/**
 * `skillctl pin [PATH...] [--all]` as one request: the targets the paths name (or everything under
 * the skill roots), the secret keys to sign with, then `pin`. A target, key or skill root that
 * cannot be used stops the run before the lock is touched.
 */
import { isAbsolute, join } from 'node:path';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { FileLockOptions } from '../fs/index.js';
import { readSecretKey } from '../sign/index.js';
import type { PulledOrigin } from './origins.js';
import { pin, type PinOutcome } from './pin.js';
import type { Signing } from './prepare.js';
import { readSkillRoots } from './project-skills.js';
import { checkSkillRoots } from './skill-roots.js';
import { collectTargets } from './targets.js';
import { pushAll } from '../findings.js';

export interface PinPathsRequest {
  /** The project root (sources are relative to it) and the working directory (paths are). */
  readonly root: string;
  readonly cwd: string;
  readonly paths: readonly string[];
  /** Every skill folder under the skill roots and pack in manifests/packs/; drop pins of ones that no longer exist. */
  readonly all: boolean;
  /** Set the lock's skill roots (`--skill-roots`); `all` then searches these. */
  readonly skillRoots?: readonly string[];
  readonly lockPath: string;
  readonly lockFile: string;
  /** Secret key files (relative to `cwd`) and the signer id each signs as. */
  readonly keys: readonly { readonly file: string; readonly signer: string }[];
  readonly replace: boolean;
  readonly trustKeys: boolean;
  readonly minSigners?: number;
  /** Origins to record on the pins of these sources (POSIX paths relative to root). */
  readonly origins?: ReadonlyMap<string, PulledOrigin>;
  readonly fileLock: FileLockOptions;
  /** Called after each target is read and digested (done of total), for a progress line. */
  readonly onProgress?: (done: number, total: number) => void;
}

async function readKeys(cwd: string, keys: PinPathsRequest['keys']): Promise<{ signing: Signing[]; diagnostics: Diagnostic[] }> {
  const signing: Signing[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { file, signer } of keys) {
    const r = await readSecretKey(isAbsolute(file) ? file : join(cwd, file), file);
    pushAll(diagnostics, r.diagnostics);
    if (r.key !== undefined) signing.push({ signer, key: r.key });
  }
  return { signing, diagnostics };
}

export async function pinPaths(req: PinPathsRequest): Promise<PinOutcome> {
  const rootsFound = req.skillRoots !== undefined ? checkSkillRoots(req.skillRoots, { file: '--skill-roots' }) : [];
  // The lock's own findings (unreadable, invalid) are pin's to report; its roots are the defaults then.
  const roots = req.skillRoots ?? (await readSkillRoots(req.lockPath, req.lockFile)).roots;
  const targets = rootsFound.length > 0 ? { targets: [], diagnostics: [] } : await collectTargets(req.root, req.cwd, req.paths, req.all, roots);
  const keys = await readKeys(req.cwd, req.keys);
  const early = [...rootsFound, ...targets.diagnostics, ...keys.diagnostics];
  if (hasErrors(early)) return { ok: false, lockWritten: false, signaturesWritten: [], changes: [], diagnostics: sortDiagnostics(early) };
  return pin({
    root: req.root,
    lockPath: req.lockPath,
    lockFile: req.lockFile,
    targets: targets.targets,
    signing: keys.signing,
    replace: req.replace,
    trustKeys: req.trustKeys,
    ...(req.minSigners !== undefined ? { minSigners: req.minSigners } : {}),
    prune: req.all,
    ...(req.skillRoots !== undefined ? { skillRoots: req.skillRoots } : {}),
    ...(req.origins !== undefined ? { origins: req.origins } : {}),
    fileLock: req.fileLock,
    ...(req.onProgress !== undefined ? { onProgress: req.onProgress } : {}),
  });
}
