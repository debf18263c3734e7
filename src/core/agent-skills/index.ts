export { readPromptSkills, type PromptCatalogue } from './catalogue.js';
export { AGENT_SKILL_CODES, type AgentSkillCode } from './codes.js';
export { convertSkillDir, type Converted, type ConvertedEntrypoint, type ConvertRequest, type ConvertTarget } from './convert.js';
export { estimateTokens, nameFindings, normalizeName, relativeLinks, splitTools } from './checks/index.js';
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
export {
  DigestCache,
  findSkillMdFolders,
  readServedFile,
  readServedSkill,
  readServedSkills,
  SERVED_SKILL_MD,
  ServedFileChanged,
  type ServedFile,
  type ServedSkill,
  type ServedSkills,
  type SkillFolder,
} from './served.js';
export { classifyScript, entrypointIds, SCRIPT_RUNTIMES, scriptCommand, type ScriptFile, type ScriptRuntime } from './scripts.js';
export { agentSkillToManifest, scriptsOf, type ManifestConversion, type RuntimeVersions, type ToManifestOptions } from './to-manifest.js';
export { manifestToSkillMd, nameFromSkillId, type SkillMdConversion, type ToSkillMdOptions } from './to-skill-md.js';
export {
  checkSkillMd,
  findSkillMd,
  readAgentSkill,
  toProperties,
  validateAgentSkill,
  validateAgentSkillSource,
  type AgentSkillOptions,
  type AgentSkillSourceOptions,
  type AgentSkillRead,
  type AgentSkillValidation,
  type CheckSkillMdOptions,
} from './validate.js';
