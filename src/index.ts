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
 * The host policy: `loadPolicy(bytes, { file, baseDir })` (fails closed: `policy` only when there is
 * no error), `defaultPolicy(cwd)` (read inside `cwd`, nothing else), `evaluateCapability` (one
 * `kind:value` against a policy, provenact's rules), `grantPermissions` (requested ∩ policy, with
 * symlinks resolved) and `createPolicyGate` (the per-operation checks built-in skills call).
 */
export {
  createPolicyGate,
  defaultPolicy,
  evaluateCapability,
  grantPermissions,
  loadPolicy,
  type Grant,
  type GrantedPermissions,
  type HostPolicy,
  type PolicyLoad,
  type RecordingGate,
} from './core/policy/index.js';
/**
 * Running skills: `runSkill(request, options)` resolves, checks and executes one entrypoint and
 * returns its result with a sealed audit record (retries 0, sandbox `auto`, input `{}` by default);
 * `openAuditLog(path)` appends records atomically; `verifyAuditLog(text, file)` checks receipts.
 * Built-in skills implement `BuiltinSkill` against `BuiltinContext` and its `PolicyGate`.
 */
export {
  openAuditLog,
  runSkill,
  sealRecord,
  verifyAuditLog,
  type AuditRecord,
  type BuiltinContext,
  type BuiltinOutcome,
  type BuiltinSkill,
  type Clock,
  type PolicyDecision,
  type PolicyGate,
  type RunOptions,
  type RunRequest,
  type RunResult,
  type SealedAuditRecord,
} from './core/run/index.js';
export { VERSION } from './generated/version.js';
