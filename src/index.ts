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
/**
 * Validates manifests: `validateBundle(dir)` or `validateManifest(bytes, format, { file })`. Each
 * result's `entrypoints` says, per entrypoint, whether it is determinism-eligible and why not
 * (`EntrypointSummary`); `metadata.determinism_eligible` is true when all of them are.
 */
export {
  fixDigests,
  manifestDigestOf,
  validateBundle,
  validateManifest,
  type DeterminismReason,
  type EntrypointDeterminism,
  type EntrypointSummary,
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
 * `openAuditLog(path)` appends records atomically; `verifyAuditLog(text, file)` checks receipts,
 * and `verifyAuditStream(chunks, file)` the same for a log of any size read as a stream.
 * Built-in skills implement `BuiltinSkill` against `BuiltinContext` and its `PolicyGate`.
 */
export {
  openAuditLog,
  refusalRecord,
  runSkill,
  sealRecord,
  verifyAuditLog,
  verifyAuditStream,
  type AuditRecord,
  type BuiltinContext,
  type BuiltinOutcome,
  type BuiltinSkill,
  type Clock,
  type Confinement,
  type PolicyDecision,
  type PolicyGate,
  type Refusal,
  type RunOptions,
  type RunRequest,
  type RunResult,
  type SealedAuditRecord,
} from './core/run/index.js';
/**
 * Reads a .tgz bundle archive safely (no escaping paths, links, devices or bombs; bounds default to
 * 20,000 entries and 512 MiB unpacked); `extractTo` unpacks only into an empty directory.
 */
export { archiveSourceFromBytes, openArchive, type ArchiveSource } from './core/bundle/index.js';
/**
 * `packBundle(dir, outDir, { formats, profile, force })`: validates a bundle or SKILL.md folder, then writes
 * the reproducible `<skill_id>-<skill_version>.tgz` and/or `<name>.skill` (formats `tgz`, `skill`).
 * An existing `.tgz` of the same name with other bytes is refused (ARCHIVE_IMMUTABLE) unless
 * `force` (default false).
 * `checkSkillDir(dir, label)` is the gate pack and pin share: the folder's kind, validation and identity.
 */
export { packBundle, type PackFormat, type PackResult } from './core/pack/index.js';
export { checkSkillDir, checkSkillSource, type SkillCheck, type SkillIdentity, type SkillKind } from './core/skill-gate/index.js';
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
 * Skill roots: where a project keeps its skills. `DEFAULT_SKILL_ROOTS` is `manifests`, `skills`,
 * `.agents/skills`, `.claude/skills`; a lock's `skill_roots` replaces it (`pin --skill-roots`).
 * `loadSkillRoots(root)` reads the project's list from `<root>/pins/skills.lock.json` (the
 * defaults without a lock, or, with the lock's finding, when it cannot be used);
 * `findProjectSkills(root)` adds the skill folders under the roots (sorted, relative to `root`),
 * as `pin --all`, `verify-pins`, `validate` and `prompt` find them; `findSkillFolders(root, roots)`
 * searches a list of your own.
 */
export {
  DEFAULT_SKILL_ROOTS,
  findProjectSkills,
  findSkillFolders,
  loadSkillRoots,
  skillRootsOf,
  type ProjectSkills,
  type SkillRoots,
} from './core/pins/index.js';
/**
 * Agent Skills (SKILL.md) folders. `validateAgentSkill(dir, { profile, nameCharset })` checks one
 * (defaults: profile `default`, name charset `ascii`); `checkSkillMd(bytes, { file })` checks bytes
 * without a folder; `readAgentSkill(dir)` reads name, description and location as skills-ref's
 * read-properties does; `renderAvailableSkills(skills)` is its to-prompt block;
 * `agentSkillIdentity(validation)` gives the identity (`name`, `metadata.version`) and derived
 * manifest digest that pins record.
 */
export {
  agentSkillIdentity,
  agentSkillManifestDigest,
  checkSkillMd,
  readAgentSkill,
  renderAvailableSkills,
  validateAgentSkill,
  type AgentSkillProfile,
  type AgentSkillProperties,
  type AgentSkillValidation,
  type NameCharset,
} from './core/agent-skills/index.js';
/**
 * `packSkillZip(source, name)` writes the reproducible `.skill` archive of a SKILL.md folder (one
 * top-level folder `name`, package_skill.py's exclusions, fixed timestamps); a listing error or an
 * unreadable file gives findings and no archive.
 */
export { packSkillZip, type SkillZip } from './core/archive/index.js';
/**
 * The capability registry (skill loading protocol). `validateCapability(dir, { skills })` checks a
 * bundle as publish does; `publishCapabilities(registry, dirs, { skills, create })` validates and
 * makes them latest atomically (nothing changes unless all are valid; `dryRun` writes nothing);
 * `readIndex(registry)` then `loadCapability(registry, index, id)` gives the protocol's payload or
 * its CAPABILITY_NOT_FOUND / SKILL_MALFORMED error; `matchIntent(index.capabilities, text)` ranks
 * capabilities by trigger; `locateRegistry` applies the --registry / SKILLCTL_REGISTRY / project /
 * shipped order (the caller passes the environment value). `locateRegistryLayers` gives the
 * registries a command reads, upper first: an explicit one alone, else the project's over the
 * shipped one; `readRegistryView(layers)` reads them as one view (each capability with its
 * `origin`, and `shadows` when it hides a lower one), and `loadFromView(view, id)` loads from the
 * layer the view takes it from. Without `skills`, every tool binding is unresolved;
 * `dirSkillResolver(roots)` looks skills up as `<root>/<skill_id>/`.
 */
export {
  dirSkillResolver,
  loadCapability,
  loadFromView,
  locateRegistry,
  locateRegistryLayers,
  readRegistryView,
  matchIntent,
  publishCapabilities,
  readIndex,
  validateCapability,
  type CapabilityBundle,
  type CapabilityMatch,
  type CapabilitySummary,
  type CapabilityValidation,
  type IndexEntry,
  type LayeredEntry,
  type LoadError,
  type LoadResult,
  type PublishResult,
  type RegistryIndex,
  type RegistryLocation,
  type RegistryView,
  type SkillResolver,
  type Tool,
} from './core/registry/index.js';
/** What `publishCapabilities`' `fileLock` gives: the process's id and host, a clock, how long to wait. */
export type { FileLockOptions } from './core/fs/index.js';
export { VERSION } from './generated/version.js';
/**
 * Payload contracts (seed 001). `loadContractSet({ cwd, dirs })` loads the built-in contracts plus
 * those in `dirs` (default: none); `compilePayloadSchema(schema, set)` compiles a schema that may
 * `$ref` them; `enforceOutput({ produce, check, retries })` discards violating outputs and re-runs
 * (`retries` 0 runs once). Findings are results, never exceptions.
 */
export {
  checkPayloadBytes,
  compileContract,
  compilePayloadSchema,
  enforceOutput,
  findContract,
  loadContractSet,
  type Contract,
  type ContractSet,
  type EnforceResult,
  type PayloadValidator,
} from './core/contracts/index.js';
/**
 * Behaviour packs (docs/packs.md): `renderPack(profile = 'daily', maxChars?, { packs? })` returns the
 * BM-L1 text of a pack, the same bytes as `skillctl skill`. `maxChars` counts Unicode code points and
 * is clamped to [PACK_MIN_CHARS, PACK_MAX_CHARS] = [600, 16000]; leaving it out gives the whole pack.
 * Every budget keeps the whole first line `skill profile=<p> version=<v>` and the whole NEXT LOOP
 * section; a cut text keeps as many whole lines from the start as fit besides them, and each run
 * of lines left out is a line `...`. An unknown profile or non-integer budget is an INVALID_INPUT diagnostic
 * (`ok: false`), never an exception. `packs` adds operator packs (validated; none may take a
 * built-in name).
 */
export {
  BUILTIN_PROFILES,
  DEFAULT_PROFILE,
  PACK_MAX_CHARS,
  PACK_MIN_CHARS,
  renderPack,
  type Pack,
  type PackSection,
  type RenderedPack,
  type RenderPackOptions,
} from './core/behaviour-packs/index.js';
/**
 * Operator packs: `loadPackDir(dir, { label?, reserved? })` reads every `<profile>.yaml|.yml|.json`
 * in `dir` (symbolic links refused; `reserved` defaults to the built-in profiles) and is `ok` only
 * when all are valid; `checkPack(data, { stem? })` validates pack data already in memory.
 */
export { checkPack, loadPackDir, type LoadedPack, type LoadPackDirOptions } from './core/behaviour-packs/index.js';
/**
 * The seed's JSON request `{"profile"?, "max_chars"?}` for runners and servers that accept it as
 * text: `parsePackRequest(bytes)` (guarded JSON parse, at most 64 KiB) then
 * `checkPackRequest(value, profiles)` (null counts as absent; profile defaults to `daily`).
 */
export { checkPackRequest, parsePackRequest, type PackRequest } from './core/behaviour-packs/index.js';
