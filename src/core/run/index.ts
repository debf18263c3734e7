export type { Attempt, AttemptOutcome, RunStatus } from './attempt.js';
export {
  AUDIT_GENESIS,
  AUDIT_VERSION,
  auditLine,
  DEFAULT_AUDIT_PATH,
  sealRecord,
  type AuditDenial,
  type AuditEndRecord,
  type AuditFallback,
  type AuditRecord,
  type AuditResult,
  type AuditStartRecord,
  type CapScope,
  type Sealed,
  type SealedAuditRecord,
} from './audit.js';
export { openAuditLog, type AuditLog, type AuditLogPlace } from './audit-log.js';
export { diffAuditRecords, pickRecord, pickRecordStream, toRecordRef, type AuditDiff, type PickedRecord, type RecordRef } from './audit-diff.js';
export { verifyAuditLog, verifyAuditStream, type AuditVerification, type VerifyOptions } from './audit-verify.js';
export type { BuiltinContext, BuiltinLimits, BuiltinOutcome, BuiltinSkill, Confinement, PolicyDecision, PolicyGate } from './builtin.js';
export { listSkills, skillNotFound, type CatalogueOptions, type ListedSkill, type SkillCatalogue } from './catalogue.js';
export { compileEntrypointSchema, defaultSchemaCompiler, type SchemaChecker, type SchemaCompiler, type SchemaOptions } from './contract.js';
export { checkRunDeterminism, type DeterminismResult, type DeterminismVerdict } from './determinism.js';
export { fieldValue, fingerprintDifferences, fingerprintOf, NO_FINGERPRINTS, runFingerprints, type FingerprintFields, type FingerprintRoots, type RunFingerprints } from './fingerprints.js';
export { refusalRecord, type Refusal } from './record.js';
export { runSkill, type ApprovedPin, type AuditSink, type Clock, type PolicyInForce, type RunOptions, type RunRequest, type RunResult } from './engine.js';
export type { Builtins } from './prepare.js';
export { makeRunCgroup, RUN_MAX_PROCESSES, type CgroupHost, type RunCgroup } from './cgroup.js';
export { loadFull } from './full-load.js';
export {
  compareVersions,
  isPathTarget,
  LOCK_PATH,
  lockPinLookup,
  resolveSkill,
  verifiedPinLookup,
  type PinLookup,
  type Resolution,
  type ResolvedSkill,
  type ResolveOptions,
  type SkillOrigin,
  type SkillPin,
} from './resolve.js';
export { confiner, type BuiltinJob, type BuiltinLookup, type BuiltinObserver, type ConfineOptions } from './runtimes/builtin.js';
export { serveBuiltinJob, type JobPort } from './runtimes/builtin-host.js';
export { expectedThreadLimits, type BuiltinThread, type BuiltinWorkers, type WorkerMessage } from './runtimes/builtin-worker.js';
export { builtinThreadLimits, COMMIT_GRACE_MS } from './thread-limits.js';
export { containerArgs, type ContainerSpec } from './runtimes/container.js';
export { nodePermissionFlag, type HostNode } from './runtimes/interpreter.js';
export { matchSnapshot, snapshotBundle, type BundleSnapshot, type BundleSnapshots } from './snapshot.js';
export { bwrapArgs, type SandboxSpec } from './bwrap-args.js';
export { bwrapComplaint, bwrapSetupFailed, type SandboxMode } from './sandbox.js';
export { notDirsOnTheWay } from './protect-mounts.js';
export { killGroup, spawnBounded, type SpawnOutcome, type SpawnSpec } from './process-runner.js';
export type { SkillCode } from './skill-codes.js';
