/**
 * The typed model of a skill.contract.v1 manifest, as the JSON Schema in
 * schemas/skill.contract.v1.schema.json defines it. Rules see entrypoints only once they are
 * schema-valid, so they can rely on these types.
 */

export const CONTRACT_VERSION = 'skill.contract.v1';
/** The value Orket's reference loader accepts; treated as the same contract family. */
export const CONTRACT_VERSION_ALIAS = '1.0.5';
export const SUPPORTED_CONTRACT_VERSIONS: readonly string[] = [CONTRACT_VERSION, CONTRACT_VERSION_ALIAS];
export const VALIDATION_POLICY_VERSION = 'skill.validation.v1';

export type Runtime = 'python' | 'node' | 'shell' | 'container' | 'builtin' | 'wasm';
/** Runtimes whose interpreter or image must be pinned to an exact version. */
export const PINNED_RUNTIMES: ReadonlySet<Runtime> = new Set(['python', 'node', 'shell', 'container']);

export type PermissionScope = 'fs.read' | 'fs.write' | 'net.http' | 'exec' | 'env';
export const PERMISSION_SCOPES: readonly PermissionScope[] = ['fs.read', 'fs.write', 'net.http', 'exec', 'env'];
export type Permissions = Partial<Record<PermissionScope, string | string[]>>;

export type Limit = number | string;
export interface RuntimeLimits {
  readonly max_execution_time?: Limit;
  readonly max_memory?: Limit;
  readonly max_output_bytes?: Limit;
}

export interface ExecutionContext {
  readonly locale?: string;
  readonly timezone?: string;
  readonly encoding?: string;
}

export interface ExecutionContextDefaults extends ExecutionContext {
  readonly required_environment_variables?: string[];
  readonly value_fingerprints?: Record<string, string>;
}

export type JsonSchema = Record<string, unknown>;

export interface Entrypoint {
  readonly entrypoint_id: string;
  readonly runtime: Runtime;
  readonly runtime_version?: string;
  readonly command: string | string[];
  readonly working_directory: string;
  readonly runtime_limits: RuntimeLimits;
  readonly input_schema: JsonSchema;
  readonly output_schema: JsonSchema;
  readonly error_schema: JsonSchema;
  readonly args_fingerprint_fields: string[];
  readonly result_fingerprint_fields: string[];
  readonly side_effect_fingerprint_fields: string[];
  readonly side_effect_categories: string[];
  readonly requested_permissions: Permissions;
  readonly required_permissions: Permissions;
  readonly tool_profile_id: string;
  readonly tool_profile_version: string;
  readonly requested_determinism_profile?: 'strict' | 'best_effort' | 'none';
  readonly required_environment_variables?: string[];
  readonly value_fingerprints?: Record<string, string>;
  readonly execution_context?: ExecutionContext;
  readonly ring?: 'core' | 'compatibility' | 'experimental';
  readonly determinism_class?: 'pure' | 'workspace' | 'external';
  readonly capability_profile?: string;
  readonly tool_contract_version?: string;
  readonly namespace_scope_rule?: 'run_scope_only' | 'declared_scope_subset';
  readonly declared_namespace_scopes?: string[];
}

export interface Manifest {
  readonly skill_contract_version: string;
  readonly skill_id: string;
  readonly skill_version: string;
  readonly description: string;
  readonly manifest_digest: string;
  readonly content_digest?: string;
  readonly source_commit_digest?: string;
  readonly execution_context?: ExecutionContextDefaults;
  readonly entrypoints: Entrypoint[];
  readonly [extension: `x-${string}`]: unknown;
}

/** Normalises a permission value: a string is a set of one, blanks are dropped. */
export function permissionValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  return [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))];
}

/** Side effects that change state: an entrypoint with any of them is a write. */
const MUTATING_CATEGORIES: ReadonlySet<string> = new Set(['filesystem.write', 'filesystem.delete', 'external.state_change']);

/**
 * Why an entrypoint can change state (a side-effect category that does, or the fs.write
 * permission), or undefined when it cannot: what makes a tool bound to it a write.
 */
export function entrypointMutates(ep: Pick<Entrypoint, 'side_effect_categories' | 'requested_permissions'>): string | undefined {
  const cat = ep.side_effect_categories.find((c) => MUTATING_CATEGORIES.has(c));
  if (cat !== undefined) return `side-effect category ${cat}`;
  if (permissionValues(ep.requested_permissions['fs.write']).length > 0) return 'the fs.write permission';
  return undefined;
}

/** The command as argv: a list as given, a string split on runs of spaces. */
export function commandArgv(command: string | string[]): string[] {
  return typeof command === 'string' ? command.trim().split(/\s+/).filter((s) => s !== '') : command;
}
