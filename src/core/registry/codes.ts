import type { CodeCatalogue } from '../code-spec.js';

/**
 * Codes of the capability registry: loading (the two the protocol seed names), the publish-time
 * checks of a capability bundle, and the registry directory itself. docs/codes.md describes each.
 */
export const REGISTRY_CODES = {
  // The protocol's own error codes (seed 004), with its names.
  CAPABILITY_NOT_FOUND: { severity: 'error', title: 'No capability with this id is published in the registry.', exit: 'usage' },
  SKILL_MALFORMED: {
    severity: 'error',
    title: 'A published capability cannot be loaded: a file is missing, unparsable, off its schema or changed since publish.',
    exit: 'findings',
  },

  // The bundle's files.
  CAPABILITY_FILE_MISSING: { severity: 'error', title: 'One of the four bundle files is missing or not a regular file.', exit: 'findings' },
  CAPABILITY_FILE_UNEXPECTED: {
    severity: 'warning',
    title: 'The bundle directory holds a file that is not one of the four; it is not published.',
    exit: 'findings',
  },
  CAPABILITY_ID_DUPLICATE: { severity: 'error', title: 'Two bundles published together have the same capability_id.', exit: 'findings' },
  CAPABILITY_ID_MISMATCH: {
    severity: 'error',
    title: "skill.md's front matter names another capability_id than capability.json.",
    exit: 'findings',
  },
  CAPABILITY_TRIGGERS_MISMATCH: {
    severity: 'warning',
    title: "skill.md's front matter lists other intent_triggers than capability.json (capability.json wins).",
    exit: 'findings',
  },

  // skill.md.
  SKILL_DOC_FRONT_MATTER: { severity: 'error', title: "skill.md's front matter is not a YAML mapping of known fields.", exit: 'findings' },
  SKILL_DOC_FENCE_UNCLOSED: { severity: 'error', title: 'A code fence in skill.md is never closed.', exit: 'findings' },
  SKILL_DOC_SECTION_MISSING: { severity: 'error', title: 'skill.md lacks its title or a required section.', exit: 'findings' },
  SKILL_DOC_SECTION_DUPLICATE: { severity: 'warning', title: 'skill.md has the same required section twice.', exit: 'findings' },
  SKILL_DOC_TOOL_UNKNOWN: { severity: 'error', title: "skill.md's Tools section names a tool that tools.json does not define.", exit: 'findings' },
  SKILL_DOC_TOOL_UNLISTED: { severity: 'warning', title: "A tool of tools.json is not listed in skill.md's Tools section.", exit: 'findings' },

  // tools.json.
  TOOL_NAME_DUPLICATE: { severity: 'error', title: 'Two tools of the bundle have the same name.', exit: 'findings' },
  TOOL_NAME_COLLISION: {
    severity: 'error',
    title: 'A tool name is already used by another capability in the registry.',
    exit: 'findings',
  },
  TOOL_NAME_TOO_LONG: {
    severity: 'error',
    title: 'The namespaced tool name <capability_id>__<tool> is longer than 64 characters.',
    exit: 'findings',
  },
  TOOL_SCHEMA_INVALID: { severity: 'error', title: 'An args_schema or result_schema is not a valid JSON Schema.', exit: 'findings' },
  TOOL_WRITE_UNGUARDED: { severity: 'warning', title: 'A write tool does not require approval.', exit: 'findings' },
  TOOL_BINDING_UNRESOLVED: {
    severity: 'error',
    title: 'The skill or entrypoint a tool binds to cannot be found or is not a valid manifest.',
    exit: 'findings',
  },
  TOOL_BINDING_MISMATCH: {
    severity: 'error',
    title: "A bound tool's args_schema or result_schema differs from the entrypoint's input_schema or output_schema.",
    exit: 'findings',
  },
  TOOL_KIND_UNDERSTATED: {
    severity: 'error',
    title: 'A read tool is bound to an entrypoint that can write, delete, spawn processes or change external state.',
    exit: 'findings',
  },
  TOOL_UNBOUND: { severity: 'error', title: 'The tool has no skill binding, so skillctl cannot execute it.', exit: 'findings' },
  TOOL_APPROVAL_REQUIRED: {
    severity: 'error',
    title: 'A write tool that requires approval was called, and the server was not started with an approval mode granting it.',
    exit: 'denied',
  },

  // ui_schemas.json and the references to it.
  UI_SCHEMA_DUPLICATE: { severity: 'error', title: 'Two UI schemas of the bundle have the same schema_id.', exit: 'findings' },
  UI_SCHEMA_UNKNOWN: { severity: 'error', title: 'skill.md or a tool references a UI schema that ui_schemas.json does not define.', exit: 'findings' },
  UI_SCHEMA_UNUSED: { severity: 'warning', title: 'A UI schema is referenced neither by skill.md nor by a tool.', exit: 'findings' },
  UI_DIALECT_UNKNOWN: { severity: 'error', title: "A UI schema's dialect is not given and cannot be inferred from its definition.", exit: 'findings' },
  UI_MESSAGE_INVALID: {
    severity: 'error',
    title: 'An A2UI message or view is not well-formed (envelope, message type, surface fields).',
    exit: 'findings',
  },
  UI_CATALOG_UNSUPPORTED: { severity: 'error', title: 'A Google A2UI surface names a catalog skillctl cannot check.', exit: 'findings' },
  UI_SURFACE_UNKNOWN: { severity: 'error', title: 'An A2UI message addresses a surface no earlier createSurface created.', exit: 'findings' },
  UI_COMPONENT_UNKNOWN: { severity: 'error', title: 'A UI component or node type is not in the dialect or catalog.', exit: 'findings' },
  UI_PROPERTY_INVALID: {
    severity: 'error',
    title: 'A UI component lacks a required property, has an unknown one, or one of the wrong type.',
    exit: 'findings',
  },
  UI_COMPONENT_DUPLICATE_ID: { severity: 'error', title: 'Two UI components of one definition have the same id.', exit: 'findings' },
  UI_FIELD_DUPLICATE: { severity: 'error', title: 'Two fields of one form, or two columns of one table, have the same name.', exit: 'findings' },
  UI_ROOT_MISSING: { severity: 'error', title: 'A Google A2UI definition has components but none with id root.', exit: 'findings' },
  UI_REFERENCE_MISSING: { severity: 'error', title: 'A UI component references a component id that does not exist.', exit: 'findings' },
  UI_REFERENCE_CYCLE: { severity: 'error', title: 'UI component references form a cycle.', exit: 'findings' },
  UI_FUNCTION_UNKNOWN: { severity: 'error', title: 'A UI function call names a function the catalog does not define.', exit: 'findings' },
  UI_BINDING_PATH_INVALID: { severity: 'warning', title: 'A UI data-binding path is not a valid JSON Pointer.', exit: 'findings' },
  UI_ACTION_UNBOUND: { severity: 'warning', title: 'A UI action event names no tool of the capability.', exit: 'findings' },

  // The registry directory.
  REGISTRY_NOT_FOUND: { severity: 'error', title: 'The registry directory does not exist.', exit: 'usage' },
  REGISTRY_INDEX_INVALID: { severity: 'error', title: "The registry's index.json is unreadable or off its schema.", exit: 'usage' },
  REGISTRY_TRIGGERS_TOO_MANY: {
    severity: 'error',
    title: 'The registries in use hold more distinct intent triggers than matching reads (100,000); list and load still work.',
    exit: 'usage',
  },
  REGISTRY_READ_ONLY: {
    severity: 'error',
    title: 'The registry in use is the one shipped with skillctl, which is read-only.',
    exit: 'usage',
  },
  REGISTRY_BUSY: { severity: 'error', title: 'Another publish holds the registry lock.', exit: 'usage' },
  CAPABILITY_SHADOWED: {
    severity: 'info',
    title: "A project capability has the id of a shipped one and hides it: list, match and load see the project's.",
    exit: 'findings',
  },
  REGISTRY_PATH_UNSAFE: { severity: 'error', title: 'A directory inside the registry is a symbolic link (or not a directory); publish does not write through it.', exit: 'usage' },
} as const satisfies CodeCatalogue;
