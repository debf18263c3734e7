/**
 * skillctl as a library. Everything here is pure of process state: no printing, no exiting,
 * no reading of the working directory or environment. Results carry diagnostics; exceptions
 * are only `SkillctlError` (input cannot be read) and `InternalError` (a bug).
 */
export { CODES, diag, hasErrors, sortDiagnostics, type Code, type CodeSpec, type Diagnostic, type Result, type Severity } from './core/diagnostics.js';
export { InternalError, SkillctlError } from './core/errors.js';
/** RFC 8785 canonical JSON and `sha256:` digests; `treeDigest` is the bundle content_digest recipe. */
export { canonicalize, isSha256Digest, jcsDigest, sha256, treeDigest, type Sha256Digest, type TreeFile } from './core/digest/index.js';
/** Reads a bundle directory: `computeContent(dirSource(dir))` gives its files and content_digest. */
export { computeContent, dirSource, type BundleContent, type BundleSource } from './core/bundle/index.js';
/** Validates manifests: `validateBundle(dir)` or `validateManifest(bytes, format, { file })`. */
export {
  fixDigests,
  manifestDigestOf,
  validateBundle,
  validateManifest,
  type LoaderError,
  type Manifest,
  type ManifestValidation,
  type ValidationMetadata,
} from './core/manifest/index.js';
/**
 * Reads a .tgz bundle archive safely (no escaping paths, links, devices or bombs; bounds default to
 * 20,000 entries and 512 MiB unpacked); `extractTo` unpacks only into an empty directory.
 */
export { archiveSourceFromBytes, openArchive, type ArchiveSource } from './core/bundle/index.js';
/** `packBundle(dir, outDir)`: validates, then writes the reproducible `<skill_id>-<skill_version>.tgz`. */
export { packBundle, type PackResult } from './core/pack/index.js';
/**
 * Lock files: `openLock(path)` (skillctl or provenact format; `minSigners` defaults to the lock's,
 * 2 for provenact), `findPin(lock, id, version?)`, `verifySkillPin(ctx, pin)` (read-only; returns
 * the verified source), `verifyLock(ctx)` (all of verify-pins); `loadLock(bytes, file)` parses
 * and checks lock bytes, `renderLock(lock)` is the canonical text `pin` writes.
 */
export {
  findPin,
  findProjectRoot,
  loadLock,
  openLock,
  renderLock,
  verifyLock,
  verifyPackPin,
  verifyProvenactPin,
  verifySkillPin,
  verifySourceAgainstPin,
  type LockContext,
  type LockVerification,
  type PinVerification,
  type SkillctlLock,
  type SkillPin,
} from './core/pins/index.js';
/**
 * Agent Skills (SKILL.md) folders. `validateAgentSkill(dir, { profile, nameCharset })` checks one
 * (defaults: profile `default`, name charset `ascii`); `checkSkillMd(bytes, { file })` checks bytes
 * without a folder; `readAgentSkill(dir)` reads name, description and location as skills-ref's
 * read-properties does; `renderAvailableSkills(skills)` is its to-prompt block; `packSkillZip(source,
 * name)` writes the reproducible `.skill` archive.
 */
export {
  checkSkillMd,
  packSkillZip,
  readAgentSkill,
  renderAvailableSkills,
  validateAgentSkill,
  type AgentSkillProfile,
  type AgentSkillProperties,
  type AgentSkillValidation,
  type NameCharset,
  type SkillZip,
} from './core/agent-skills/index.js';
export { VERSION } from './generated/version.js';
