/**
 * The typed model of a capability bundle (the protocol's four files) and of a registry index,
 * as the JSON Schemas in schemas/capability*.v1.schema.json and registry-index.v1.schema.json
 * define them. Checks see these types only after the files passed their schemas.
 */
import type { Sha256Digest } from '../digest/index.js';

export type JsonSchema = Record<string, unknown>;

/** The four files of a capability bundle, in the order they are read and reported. */
export const BUNDLE_FILES = ['capability.json', 'skill.md', 'tools.json', 'ui_schemas.json'] as const;
export type BundleFileName = (typeof BUNDLE_FILES)[number];

/** A registry's index, the one file `list` and `match` read. */
export const INDEX_FILE = 'index.json';
/** Published bundles live in `capabilities/<capability_id>/<digest hex>/`. */
export const CAPABILITIES_DIR = 'capabilities';

/** Phase 1 of the protocol: every capability has one version. */
export const LATEST = 'latest';

/** capability.json */
export interface CapabilityMeta {
  readonly capability_id: string;
  readonly name: string;
  readonly description: string;
  readonly intent_triggers: readonly string[];
  readonly version?: typeof LATEST;
}

export type ToolKind = 'read' | 'write';

export interface ToolPolicy {
  readonly kind: ToolKind;
  readonly requires_approval?: boolean;
}

/** The skill entrypoint that executes a tool. */
export interface ToolBinding {
  readonly skill_id: string;
  readonly entrypoint_id: string;
}

/** One entry of tools.json. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly args_schema: JsonSchema;
  readonly result_schema: JsonSchema;
  readonly policy: ToolPolicy;
  readonly binding?: ToolBinding;
  readonly ui_schemas?: readonly string[];
}

export type UiDialect = 'a2ui.v1' | 'a2ui.google.v0.9';
export const UI_DIALECTS: readonly UiDialect[] = ['a2ui.v1', 'a2ui.google.v0.9'];

/** One entry of ui_schemas.json. */
export interface UiSchema {
  readonly schema_id: string;
  readonly dialect?: UiDialect;
  readonly description?: string;
  readonly definition: unknown;
}

/** What `capability_skill_load` returns (seed 004): the bundle an agent receives. */
export interface CapabilityBundle {
  readonly capability_id: string;
  readonly version: typeof LATEST;
  readonly skill_doc: string;
  readonly tools: readonly Tool[];
  readonly ui_schemas: readonly UiSchema[];
}

/** The light index entry an agent sees on `capability_registry_list`. */
export interface CapabilitySummary {
  readonly capability_id: string;
  readonly name: string;
  readonly description: string;
  readonly intent_triggers: readonly string[];
}

/** One entry of a registry's index.json. */
export interface IndexEntry extends CapabilitySummary {
  readonly version: typeof LATEST;
  /** Tree digest of the four published files; names their directory. */
  readonly digest: Sha256Digest;
  readonly tools: readonly string[];
  readonly ui_schemas: readonly string[];
}

export const REGISTRY_FORMAT = 'skillctl.registry.v1';

export interface RegistryIndex {
  readonly registry_format: typeof REGISTRY_FORMAT;
  /** Sorted by capability_id (UTF-8 byte order; ids are ASCII). */
  readonly capabilities: readonly IndexEntry[];
}

/** The separator of namespaced tool names; capability ids cannot contain it. */
export const NAMESPACE_SEPARATOR = '__';
/** The longest tool name common agent APIs accept. */
export const MAX_TOOL_NAME = 64;

/** The name a tool is exposed under when several capabilities are loaded in one session. */
export function namespacedToolName(capabilityId: string, tool: string): string {
  return `${capabilityId}${NAMESPACE_SEPARATOR}${tool}`;
}

export function summaryOf(entry: CapabilitySummary): CapabilitySummary {
  return {
    capability_id: entry.capability_id,
    name: entry.name,
    description: entry.description,
    intent_triggers: entry.intent_triggers,
  };
}
