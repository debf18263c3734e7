import type { CodeCatalogue } from '../code-spec.js';

/**
 * Codes of the Agent Skills (SKILL.md) checker, converter and prompt renderer. The severity here
 * is the one of the default profile; `PROFILE_SEVERITY` (profiles.ts) gives `spec` and `strict`.
 * docs/formats/agent-skills.md explains which rule of the specification or of a platform each
 * code enforces.
 */
export const AGENT_SKILL_CODES = {
  // Finding and reading SKILL.md.
  AGENT_SKILL_MD_MISSING: { severity: 'error', title: 'The skill folder has no SKILL.md.', exit: 'findings' },
  AGENT_SKILL_MD_LOWERCASE: {
    severity: 'warning',
    title: 'The skill file is named skill.md; clients and uploads look for SKILL.md.',
    exit: 'findings',
  },
  AGENT_SKILL_FRONTMATTER_MISSING: { severity: 'error', title: 'SKILL.md does not start with YAML frontmatter (---).', exit: 'findings' },
  AGENT_SKILL_FRONTMATTER_UNCLOSED: { severity: 'error', title: 'The frontmatter of SKILL.md is not closed by a --- line.', exit: 'findings' },
  AGENT_SKILL_YAML_INVALID: { severity: 'error', title: 'The frontmatter is not well-formed YAML.', exit: 'findings' },
  AGENT_SKILL_FRONTMATTER_NOT_MAPPING: { severity: 'error', title: 'The frontmatter is not a YAML mapping of fields.', exit: 'findings' },

  // Fields of the specification.
  AGENT_SKILL_FIELD_UNKNOWN: { severity: 'error', title: 'A frontmatter field that neither the specification nor a known client defines.', exit: 'findings' },
  AGENT_SKILL_EXTENSION_FIELD: {
    severity: 'warning',
    title: "A client's extension field (such as Claude Code's) that the specification does not define.",
    exit: 'findings',
  },
  AGENT_SKILL_FIELD_MISSING: { severity: 'error', title: 'A required field (name or description) is missing.', exit: 'findings' },
  AGENT_SKILL_FIELD_TYPE: { severity: 'error', title: 'A field has the wrong type (for example a number where a string is required).', exit: 'findings' },
  AGENT_SKILL_FIELD_EMPTY: { severity: 'error', title: 'name, description or compatibility is empty.', exit: 'findings' },
  AGENT_SKILL_NAME_TOO_LONG: { severity: 'error', title: 'The name is longer than 64 characters.', exit: 'findings' },
  AGENT_SKILL_NAME_UPPERCASE: { severity: 'error', title: 'The name is not lowercase.', exit: 'findings' },
  AGENT_SKILL_NAME_HYPHEN_EDGE: { severity: 'error', title: 'The name starts or ends with a hyphen.', exit: 'findings' },
  AGENT_SKILL_NAME_DOUBLE_HYPHEN: { severity: 'error', title: 'The name contains consecutive hyphens.', exit: 'findings' },
  AGENT_SKILL_NAME_CHARSET: {
    severity: 'error',
    title: 'The name has a character outside the chosen set (ASCII a-z 0-9 -, or Unicode letters and digits).',
    exit: 'findings',
  },
  AGENT_SKILL_NAME_DIR_MISMATCH: { severity: 'error', title: 'The name does not match the name of the skill folder.', exit: 'findings' },
  AGENT_SKILL_NAME_NOT_NORMALIZED: {
    severity: 'warning',
    title: 'The name is not in NFKC form or has surrounding spaces; tools that compare bytes see a different name.',
    exit: 'findings',
  },
  AGENT_SKILL_DESCRIPTION_TOO_LONG: { severity: 'error', title: 'The description is longer than 1024 characters.', exit: 'findings' },
  AGENT_SKILL_COMPATIBILITY_TOO_LONG: { severity: 'error', title: 'compatibility is longer than 500 characters.', exit: 'findings' },
  AGENT_SKILL_METADATA_INVALID: { severity: 'error', title: 'metadata is not a map from string keys to string values.', exit: 'findings' },
  AGENT_SKILL_METADATA_NOT_STRING: {
    severity: 'warning',
    title: 'A metadata value is an unquoted number, boolean or null; YAML readers disagree on its type.',
    exit: 'findings',
  },
  AGENT_SKILL_ALLOWED_TOOLS_LIST: {
    severity: 'warning',
    title: 'allowed-tools is a YAML list; the specification defines a space-separated string.',
    exit: 'findings',
  },
  AGENT_SKILL_ALLOWED_TOOLS_INVALID: {
    severity: 'error',
    title: 'allowed-tools has an empty entry or unbalanced parentheses.',
    exit: 'findings',
  },
  AGENT_SKILL_ALLOWED_TOOLS_COMMAS: {
    severity: 'warning',
    title: 'allowed-tools separates tools with commas; the specification separates them with spaces.',
    exit: 'findings',
  },
  AGENT_SKILL_BODY_LINES: { severity: 'warning', title: 'The body of SKILL.md is longer than the 500 lines the specification recommends.', exit: 'findings' },
  AGENT_SKILL_BODY_TOKENS: {
    severity: 'warning',
    title: 'The body of SKILL.md is estimated above the 5000 tokens the specification recommends.',
    exit: 'findings',
  },

  // Platform rules (Claude's upload, the MCP Skills extension).
  AGENT_SKILL_NAME_RESERVED: { severity: 'warning', title: 'The name contains a reserved word (anthropic, claude).', exit: 'findings' },
  AGENT_SKILL_ANGLE_BRACKETS: { severity: 'warning', title: 'The name or description contains < or > (XML tags are refused on upload).', exit: 'findings' },
  AGENT_SKILL_TOO_MANY_FILES: { severity: 'warning', title: 'The skill folder has more than 512 files.', exit: 'findings' },
  AGENT_SKILL_TOO_LARGE: { severity: 'warning', title: 'The skill folder holds more than 16 MiB.', exit: 'findings' },
  AGENT_SKILL_LINK_BROKEN: { severity: 'warning', title: 'The body links to a file of the skill that does not exist.', exit: 'findings' },

  // prompt and convert.
  AGENT_SKILL_NAME_DUPLICATE: { severity: 'warning', title: 'Two skills given to prompt, or served by mcp --skills, have the same name; agents see only one.', exit: 'findings' },
  AGENT_SKILL_CONVERT_NO_SCRIPTS: {
    severity: 'error',
    title: 'The skill has no script to make an entrypoint of; skill.contract.v1 needs at least one.',
    exit: 'findings',
  },
  AGENT_SKILL_CONVERT_ID_INVALID: { severity: 'error', title: 'The skill name is not a valid skill_id; give one with --id.', exit: 'findings' },
  AGENT_SKILL_CONVERT_NAME_INVALID: {
    severity: 'error',
    title: 'No valid Agent Skills name matches the bundle folder; give one with --name or rename the folder.',
    exit: 'findings',
  },
  AGENT_SKILL_RUNTIME_VERSION_MISSING: {
    severity: 'error',
    title: 'A script needs a runtime whose exact version was neither given nor found on this machine.',
    exit: 'usage',
  },
  AGENT_SKILL_SCRIPT_SKIPPED: { severity: 'info', title: 'A file under scripts/ was not made an entrypoint (unknown runtime, or a private module).', exit: 'findings' },
  AGENT_SKILL_SCRIPT_NOT_EXECUTABLE: {
    severity: 'warning',
    title: 'A shell script made an entrypoint has no execute bit, so it cannot be run directly.',
    exit: 'findings',
  },

  // pack and pin.
  AGENT_SKILL_VERSION_REQUIRED: {
    severity: 'error',
    title: 'Packing a .tgz or pinning needs metadata.version in the frontmatter, as a semantic version.',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;

export type AgentSkillCode = keyof typeof AGENT_SKILL_CODES;
