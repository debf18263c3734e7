/**
 * Lock files and pins. What other parts of skillctl use:
 *
 * - `openLock(path)` reads a lock (skillctl or provenact format) and its trust anchors into a
 *   `LockContext`, with the findings about the lock itself;
 * - `findPin(lock, skillId, skillVersion?)` resolves a skill id through a skillctl lock;
 * - `verifySkillPin(ctx, pin)` checks one pinned bundle or archive (read-only) and returns the
 *   verified source to run from; `verifySourceAgainstPin` does the same for a source the caller
 *   opened; `verifyPackPin` and `verifyProvenactPin` check the other kinds of pin;
 * - `verifyLock(ctx)` is `verify-pins`; `pinPaths(request)` is `pin` (`pin(request)` once the targets are known);
 * - `loadSkillRoots(root)` and `findProjectSkills(root)`: where a project keeps its skills (the
 *   lock's `skill_roots`, else `DEFAULT_SKILL_ROOTS`) and the skill folders there.
 */
export { PIN_CODES } from './codes.js';
export { openLock, PROVENACT_MIN_SIGNERS, type LockContext, type OpenedLock, type OpenLockOptions, type ProvenactLockContext, type SkillctlLockContext } from './context.js';
export { findPin } from './find.js';
export { comparePackPins, compareSkillPins, emptyLock, loadLock, LOCK_MAX_BYTES, readLockBytes, readLockFile, renderLock, type LockLoad } from './lock.js';
export * from './model.js';
export { PACK_EXTENSIONS, readPackFile, SEMVER, toPackDocument, type PackDocument } from './pack-doc.js';
export { findProjectRoot } from '../fs/index.js';
export { escapesRoot, exists, lockRoot, resolveSource, sourcePath, toSource, unsafeSourcePath } from './paths.js';
export { applyPins, pin, type PinChange, type PinOutcome, type PinRequest } from './pin.js';
export { pinPaths, type PinPathsRequest } from './pin-paths.js';
export { recordOrigins, type PulledOrigin } from './origins.js';
export { preparePin, type Prepared, type PrepareContext, type Signing } from './prepare.js';
export { findProjectSkills, loadSkillRoots, readSkillRoots, type ProjectSkills, type SkillRoots } from './project-skills.js';
export { findBundles, findPacks, findPinnable, findProvenactBundles, findSkillFolders, MANIFESTS_DIR, PACKS_DIR, SKILL_FOLDER_MARKERS, type Pinnable } from './scan.js';
export { checkSkillRoots, DEFAULT_SKILL_ROOTS, MAX_SKILL_ROOTS, recordedSkillRoots, skillRootsOf } from './skill-roots.js';
export { collectTargets, type PinTarget, type Targets } from './targets.js';
export { verifyLock, type LockVerification, type VerifyLockOptions } from './verify-lock.js';
export { verifyPackPin, type PackVerification } from './verify-pack.js';
export { verifyProvenactPin, type ProvenactVerification } from './verify-provenact.js';
export { pinnedDirectory, verifySkillPin, verifySourceAgainstPin, type DigestComparison, type PinVerification } from './verify-skill.js';
export { checkAgainstBase, checkLockAgainstBase, lockKeys, type LockKeys, type SignerKeys } from './against-base.js';
export { CHECKOUT_ATTRIBUTES, checkCheckout, checkoutAnchors, isLfsPointer, LFS_POINTER_MAX, type CheckedOutFile, type CheckoutAttributes } from './checkout.js';
