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
/**
 * The capability registry (skill loading protocol). `validateCapability(dir, { skills })` checks a
 * bundle as publish does; `publishCapabilities(registry, dirs, { skills, create })` validates and
 * makes them latest atomically (nothing changes unless all are valid; `dryRun` writes nothing);
 * `readIndex(registry)` then `loadCapability(registry, index, id)` gives the protocol's payload or
 * its CAPABILITY_NOT_FOUND / SKILL_MALFORMED error; `matchIntent(index.capabilities, text)` ranks
 * capabilities by trigger; `locateRegistry` applies the --registry / SKILLCTL_REGISTRY / project /
 * shipped order (the caller passes the environment value). Without `skills`, every tool binding is
 * unresolved; `dirSkillResolver(roots)` looks skills up as `<root>/<skill_id>/`.
 */
export {
  dirSkillResolver,
  loadCapability,
  locateRegistry,
  matchIntent,
  publishCapabilities,
  readIndex,
  validateCapability,
  type CapabilityBundle,
  type CapabilityMatch,
  type CapabilitySummary,
  type CapabilityValidation,
  type IndexEntry,
  type LoadError,
  type LoadResult,
  type PublishResult,
  type RegistryIndex,
  type SkillResolver,
  type Tool,
} from './core/registry/index.js';
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
