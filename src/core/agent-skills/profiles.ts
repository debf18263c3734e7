import type { Diagnostic, Severity } from '../diagnostics.js';
import type { AgentSkillCode } from './codes.js';
import type { AgentSkillProfile } from './model.js';

type Level = Severity | 'off';
type Levels = Readonly<Record<AgentSkillProfile, Level>>;

const SPEC_RULE: Levels = { spec: 'error', default: 'error', strict: 'error' };
/** A client's extension: the specification forbids it, clients use it, uploads refuse it. */
const EXTENSION: Levels = { spec: 'error', default: 'warning', strict: 'error' };
/** A platform's rule (Claude upload, MCP host limits): not the specification's business. */
const PLATFORM: Levels = { spec: 'off', default: 'warning', strict: 'error' };
/** The specification's own recommendations. */
const GUIDANCE: Levels = { spec: 'warning', default: 'warning', strict: 'warning' };

/** The codes the SKILL.md checker reports, and their severity under each profile. */
export const PROFILE_LEVELS = {
  AGENT_SKILL_MD_MISSING: SPEC_RULE,
  AGENT_SKILL_MD_LOWERCASE: { spec: 'warning', default: 'warning', strict: 'error' },
  AGENT_SKILL_FRONTMATTER_MISSING: SPEC_RULE,
  AGENT_SKILL_FRONTMATTER_UNCLOSED: SPEC_RULE,
  AGENT_SKILL_YAML_INVALID: SPEC_RULE,
  AGENT_SKILL_FRONTMATTER_NOT_MAPPING: SPEC_RULE,
  AGENT_SKILL_FIELD_UNKNOWN: SPEC_RULE,
  AGENT_SKILL_EXTENSION_FIELD: EXTENSION,
  AGENT_SKILL_FIELD_MISSING: SPEC_RULE,
  AGENT_SKILL_FIELD_TYPE: SPEC_RULE,
  AGENT_SKILL_FIELD_EMPTY: SPEC_RULE,
  AGENT_SKILL_NAME_TOO_LONG: SPEC_RULE,
  AGENT_SKILL_NAME_UPPERCASE: SPEC_RULE,
  AGENT_SKILL_NAME_HYPHEN_EDGE: SPEC_RULE,
  AGENT_SKILL_NAME_DOUBLE_HYPHEN: SPEC_RULE,
  AGENT_SKILL_NAME_CHARSET: SPEC_RULE,
  AGENT_SKILL_NAME_DIR_MISMATCH: SPEC_RULE,
  AGENT_SKILL_NAME_NOT_NORMALIZED: { spec: 'off', default: 'warning', strict: 'warning' },
  AGENT_SKILL_DESCRIPTION_TOO_LONG: SPEC_RULE,
  AGENT_SKILL_COMPATIBILITY_TOO_LONG: SPEC_RULE,
  AGENT_SKILL_METADATA_INVALID: SPEC_RULE,
  AGENT_SKILL_METADATA_NOT_STRING: GUIDANCE,
  AGENT_SKILL_ALLOWED_TOOLS_LIST: EXTENSION,
  AGENT_SKILL_ALLOWED_TOOLS_INVALID: SPEC_RULE,
  AGENT_SKILL_ALLOWED_TOOLS_COMMAS: GUIDANCE,
  AGENT_SKILL_BODY_LINES: GUIDANCE,
  AGENT_SKILL_BODY_TOKENS: GUIDANCE,
  AGENT_SKILL_NAME_RESERVED: PLATFORM,
  AGENT_SKILL_ANGLE_BRACKETS: PLATFORM,
  AGENT_SKILL_TOO_MANY_FILES: PLATFORM,
  AGENT_SKILL_TOO_LARGE: PLATFORM,
  AGENT_SKILL_LINK_BROKEN: { spec: 'off', default: 'warning', strict: 'warning' },
} as const satisfies Partial<Record<AgentSkillCode, Levels>>;

export type AgentSkillLintCode = keyof typeof PROFILE_LEVELS;

function isLintCode(code: string): code is AgentSkillLintCode {
  return code in PROFILE_LEVELS;
}

/**
 * Applies a profile once, after every check ran (checks never decide severity): drops the codes
 * the profile turns off and sets the severity of the rest. Codes that are not lint codes (the
 * shared parse guards, bundle findings) keep theirs.
 */
export function applyProfile(diagnostics: readonly Diagnostic[], profile: AgentSkillProfile): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (!isLintCode(d.code)) {
      out.push(d);
      continue;
    }
    const level: Level = PROFILE_LEVELS[d.code][profile];
    if (level === 'off') continue;
    out.push(level === d.severity ? d : { ...d, severity: level });
  }
  return out;
}
