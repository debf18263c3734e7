export { readPromptSkills, type PromptCatalogue } from './catalogue.js';
export { AGENT_SKILL_CODES, type AgentSkillCode } from './codes.js';
export { convertSkillDir, type Converted, type ConvertedEntrypoint, type ConvertRequest, type ConvertTarget } from './convert.js';
export { estimateTokens, nameFindings, normalizeName, relativeLinks, skillNameKey, splitTools } from './checks/index.js';
export { parseSkillMd, type SkillMdDocument } from './frontmatter.js';
export { AGENT_SKILL_KIND, agentSkillIdentity, agentSkillManifestDigest, agentSkillVersion, type AgentSkillIdentity } from './identity.js';
export {
  AGENT_SKILL_PROFILES,
  charLength,
  CLAUDE_CODE_FIELDS,
  SKILL_MD_NAMES,
  SPEC_FIELDS,
  type AgentSkillProfile,
  type AgentSkillProperties,
  type NameCharset,
  type SkillMdName,
} from './model.js';
export { applyProfile, PROFILE_LEVELS, type AgentSkillLintCode } from './profiles.js';
export { escapeXml, renderAvailableSkills, type PromptSkill } from './prompt.js';
export { readServedSkill, readServedSkills } from './served.js';
export type { ServedFile, ServedSkill, ServedSkills } from './served-model.js';
export { READ_PASS_MS, servedCatalogue, type LookupOptions, type ServedCatalogue } from './served-catalogue.js';
export { holdRoot, ServedRoots, type CheckedRoots, type HeldRoot, type ServedRoot } from './served-roots.js';
export { DigestCache } from './served-cache.js';
export { packIdentities, setUnchanged, type IdentityChecker, type PackedSet } from './served-check.js';
export { hashRegularFile, readServedFile, ServedFileChanged } from './served-read.js';
export { SHARED_PASS_COSTS } from './served-shared-pass.js';
export { ABSENT, identityOf, sameIdentity, SERVED_SKILL_MD, ServedWalker, SETTLE_MS, type Clock, type FileIdentity, type SkillFolder } from './served-walk.js';
export { classifyScript, entrypointIds, SCRIPT_RUNTIMES, scriptCommand, type ScriptFile, type ScriptRuntime } from './scripts.js';
export { agentSkillToManifest, scriptsOf, type ManifestConversion, type RuntimeVersions, type ToManifestOptions } from './to-manifest.js';
export { manifestToSkillMd, nameFromSkillId, type SkillMdConversion, type ToSkillMdOptions } from './to-skill-md.js';
export {
  checkSkillMd,
  findSkillMd,
  toProperties,
  validateAgentSkill,
  validateAgentSkillSource,
  type AgentSkillOptions,
  type AgentSkillSourceOptions,
  type AgentSkillValidation,
  type CheckSkillMdOptions,
} from './validate.js';
export { readAgentSkill, type AgentSkillRead } from './read-properties.js';
