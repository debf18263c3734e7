/**
 * The Agent Skills format (agentskills.io specification, docs/specification.mdx): a folder whose
 * SKILL.md starts with YAML frontmatter. Limits and field lists are the specification's; the
 * client extension fields are Claude Code's documented ones (docs/formats/agent-skills.md).
 */

/** The frontmatter fields the specification defines, in its order. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
export type SpecField = (typeof SPEC_FIELDS)[number];

/**
 * Claude Code's documented extension fields. Strict validators (skills-ref, Claude's upload)
 * refuse them; most users hit that first (anthropics/skills#394), so the default profile warns.
 */
export const CLAUDE_CODE_FIELDS: readonly string[] = [
  'agent',
  'argument-hint',
  'arguments',
  'context',
  'disable-model-invocation',
  'disallowed-tools',
  'effort',
  'hooks',
  'model',
  'paths',
  'shell',
  'user-invocable',
  'when_to_use',
];

export const NAME_MAX_CHARS = 64;
export const DESCRIPTION_MAX_CHARS = 1024;
export const COMPATIBILITY_MAX_CHARS = 500;
/** "Keep your main SKILL.md under 500 lines" and "< 5000 tokens recommended" (specification). */
export const BODY_MAX_LINES = 500;
export const BODY_MAX_TOKENS = 5000;
/** Limits every host of the MCP Skills extension must accept (SEP-2640): files and bytes per skill. */
export const SKILL_MAX_FILES = 512;
export const SKILL_MAX_BYTES = 16 * 1024 * 1024;
/** Words Claude's upload refuses in a name. */
export const RESERVED_NAME_WORDS: readonly string[] = ['anthropic', 'claude'];

/** The names the skill file is looked for under, in order (skills-ref falls back to lowercase). */
export const SKILL_MD_NAMES = ['SKILL.md', 'skill.md'] as const;
export type SkillMdName = (typeof SKILL_MD_NAMES)[number];

/**
 * Which names `AGENT_SKILL_NAME_CHARSET` accepts. The specification lists `a-z`, `0-9` and `-`;
 * its reference validator accepts any Unicode letter or digit and tests Chinese and Russian
 * names. skillctl defaults to `ascii` and makes the choice explicit.
 */
export type NameCharset = 'ascii' | 'unicode';

/**
 * `spec`: errors exactly where the specification says (extension fields are errors, platform
 * rules are off). `default`: the specification, with client extension fields as warnings and
 * platform rules as warnings. `strict`: for upload targets; extension fields and platform rules
 * are errors.
 */
export type AgentSkillProfile = 'spec' | 'default' | 'strict';
export const AGENT_SKILL_PROFILES: readonly AgentSkillProfile[] = ['spec', 'default', 'strict'];

/** What `skills-ref read-properties` returns: the frontmatter fields, typed. */
export interface AgentSkillProperties {
  readonly name: string;
  readonly description: string;
  readonly license?: string;
  readonly compatibility?: string;
  /** As written: a string, or the list form some clients accept, joined with spaces. */
  readonly 'allowed-tools'?: string;
  /** Scalars read as their source text, so `version: 1.0` is "1.0" as in the reference. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** Length in code points, as the specification and Python count, not UTF-16 units. */
export function charLength(s: string): number {
  return [...s].length;
}
