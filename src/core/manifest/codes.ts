import type { CodeCatalogue } from '../code-spec.js';

/** Codes of the manifest linter. docs/codes.md describes each; loader-error.ts maps each to an ERR_* class. */
export const MANIFEST_CODES = {
  // Reading and parsing: the document never reaches the schema.
  MANIFEST_TOO_LARGE: { severity: 'error', title: 'The manifest file is larger than the 4 MiB bound.', exit: 'findings' },
  MANIFEST_ENCODING: { severity: 'error', title: 'The manifest is not valid UTF-8.', exit: 'findings' },
  MANIFEST_PARSE_ERROR: { severity: 'error', title: 'The manifest is not well-formed YAML or JSON.', exit: 'findings' },
  MANIFEST_DUPLICATE_KEY: { severity: 'error', title: 'A mapping has the same key twice.', exit: 'findings' },
  MANIFEST_ALIAS_LIMIT: {
    severity: 'error',
    title: 'The YAML uses more aliases than allowed (an alias bomb guard).',
    exit: 'findings',
  },
  MANIFEST_TOO_DEEP: { severity: 'error', title: 'The manifest nests deeper than 64 levels.', exit: 'findings' },
  MANIFEST_TOO_MANY_KEYS: { severity: 'error', title: 'A mapping of the document has more than 10,000 keys.', exit: 'findings' },
  MANIFEST_TOO_MANY_NODES: { severity: 'error', title: 'The document holds more than 200,000 keys and values.', exit: 'findings' },
  MANIFEST_FORBIDDEN_KEY: {
    severity: 'error',
    title: 'A key named __proto__, constructor or prototype (prototype-pollution guard).',
    exit: 'findings',
  },
  MANIFEST_VALUE_NOT_JSON: {
    severity: 'error',
    title: 'A value JSON cannot represent exactly: non-finite or unsafe number, non-string key, tagged value.',
    exit: 'findings',
  },
  MANIFEST_NOT_MAPPING: { severity: 'error', title: 'The manifest is not a mapping (object) at the top level.', exit: 'findings' },
  MANIFEST_YAML_WARNING: { severity: 'warning', title: 'The YAML parser reported a warning.', exit: 'findings' },

  // Semantic rules (src/core/manifest/rules/).
  CONTRACT_VERSION_UNSUPPORTED: {
    severity: 'error',
    title: 'skill_contract_version is not skill.contract.v1 (or its alias 1.0.5).',
    exit: 'findings',
  },
  DIGEST_FORMAT: { severity: 'error', title: 'A digest is not sha256: followed by 64 lowercase hex digits.', exit: 'findings' },
  MANIFEST_DIGEST_MISMATCH: { severity: 'error', title: 'manifest_digest does not match the manifest.', exit: 'findings' },
  CONTENT_DIGEST_MISMATCH: { severity: 'error', title: "content_digest does not match the bundle's files.", exit: 'findings' },
  CONTENT_DIGEST_MISSING: {
    severity: 'warning',
    title: "The manifest has no content_digest, so manifest_digest does not cover the bundle's files.",
    exit: 'findings',
  },
  CONTENT_DIGEST_UNVERIFIED: {
    severity: 'info',
    title: 'content_digest was not recomputed because no bundle directory was given (stdin).',
    exit: 'findings',
  },
  SKILL_MD_STALE: {
    severity: 'warning',
    title: "The bundle's SKILL.md, written by skillctl convert, no longer matches its manifest (skill_id, version or description).",
    exit: 'findings',
  },
  RUNTIME_UNPINNED: { severity: 'error', title: 'A python, node, shell or container entrypoint has no exact runtime_version.', exit: 'findings' },
  RUNTIME_LIMIT_INVALID: {
    severity: 'error',
    title: 'A runtime limit is not a positive amount in a known unit.',
    exit: 'findings',
  },
  FINGERPRINT_INCOMPLETE: {
    severity: 'error',
    title: 'args_fingerprint_fields or result_fingerprint_fields is empty.',
    exit: 'findings',
  },
  FINGERPRINT_FIELD_UNKNOWN: {
    severity: 'error',
    title: 'A fingerprint field does not name a property the input or output schema declares.',
    exit: 'findings',
  },
  SIDE_EFFECT_UNDECLARED: {
    severity: 'error',
    title: 'side_effect_categories is non-empty but side_effect_fingerprint_fields is empty.',
    exit: 'findings',
  },
  SIDE_EFFECT_CATEGORY_UNKNOWN: {
    severity: 'error',
    title: 'A side-effect category is neither in the core set nor a vendor.category_name extension.',
    exit: 'findings',
  },
  SIDE_EFFECT_CATEGORY_ALIAS: {
    severity: 'error',
    title: 'A vendor extension category redefines or aliases a core category.',
    exit: 'findings',
  },
  PERMISSION_UNDECLARED: {
    severity: 'error',
    title: 'A required permission is not covered by the requested permissions of the same scope.',
    exit: 'findings',
  },
  PERMISSION_SCOPE_UNKNOWN: {
    severity: 'error',
    title: 'A permission scope other than fs.read, fs.write, net.http, exec, env.',
    exit: 'findings',
  },
  PERMISSION_VALUE_INVALID: {
    severity: 'error',
    title: 'A permission value is not a valid path, URL prefix, command or variable name for its scope.',
    exit: 'findings',
  },
  ENV_NOT_REQUESTED: {
    severity: 'error',
    title: 'A required environment variable is not requested in the env permission scope.',
    exit: 'findings',
  },
  ENTRYPOINT_DUPLICATE_ID: { severity: 'error', title: 'Two entrypoints have the same entrypoint_id.', exit: 'findings' },
  TOOL_PROFILE_DUPLICATE_ID: { severity: 'error', title: 'Two entrypoints have the same tool_profile_id.', exit: 'findings' },
  PATH_ESCAPES_BUNDLE: {
    severity: 'error',
    title: 'working_directory or a command path is absolute or leaves the bundle.',
    exit: 'findings',
  },
  COMMAND_INVALID: { severity: 'error', title: 'The command is not a valid reference for its runtime.', exit: 'findings' },
  EMBEDDED_SCHEMA_INVALID: {
    severity: 'error',
    title: 'An input, output or error schema is not a valid JSON Schema.',
    exit: 'findings',
  },
  EXECUTION_CONTEXT_INVALID: {
    severity: 'error',
    title: 'A locale, timezone or encoding assumption is not a known value.',
    exit: 'findings',
  },
  DETERMINISM_REQUEST_UNMET: {
    severity: 'warning',
    title: 'requested_determinism_profile asks for strict determinism but the entrypoint is not eligible.',
    exit: 'findings',
  },

  // Determinism eligibility (src/core/manifest/determinism/): why an entrypoint is not eligible,
  // where no loader error says it already. Info: none makes a manifest invalid by itself.
  DETERMINISM_RUNTIME_INEXACT: {
    severity: 'info',
    title: 'A runtime_version the loader does not check (a builtin entrypoint) is not one exact version.',
    exit: 'findings',
  },
  DETERMINISM_FINGERPRINT_UNCOVERED: {
    severity: 'info',
    title: 'An input or output schema property is not in args_fingerprint_fields or result_fingerprint_fields.',
    exit: 'findings',
  },
  DETERMINISM_SIDE_EFFECT_UNCOVERED: {
    severity: 'info',
    title: 'An fs.write, net.http or exec permission has no matching side-effect category, or no side_effect_fingerprint_fields.',
    exit: 'findings',
  },
  DETERMINISM_CONTEXT_FROM_HOST: {
    severity: 'info',
    title: 'required_environment_variables names a locale, time zone or encoding variable, so that context comes from the host.',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
