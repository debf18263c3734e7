/**
 * The best-effort view of a manifest's entrypoints that the rules read. A manifest broken in one
 * field is still checked in every other: a field is left out of the view when the schema found it
 * (or anything inside it) wrong, or when its value is not of the type the rules rely on. So a rule
 * never meets a wrong type, and every finding that does not depend on the broken part comes out
 * in the same run (docs/commands/validate.md: every finding in one pass).
 */
import type { Diagnostic } from '../../diagnostics.js';
import { PERMISSION_SCOPES, type Entrypoint, type Permissions, type Runtime } from '../model.js';

/** An entrypoint as far as it can be read: each present field has the type the model gives it. */
export type EntrypointView = { readonly [K in keyof Entrypoint]?: Entrypoint[K] };

type Field = keyof Entrypoint;
type Guard = (v: unknown) => boolean;

const isString: Guard = (v) => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStringList: Guard = (v) => Array.isArray(v) && v.every(isString);
const oneOf =
  (...values: readonly string[]): Guard =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const isPermissions: Guard = (v) =>
  isObject(v) && Object.entries(v).every(([k, x]) => (PERMISSION_SCOPES as readonly string[]).includes(k) && (isString(x) || isStringList(x)));
const LIMIT_FIELDS = ['max_execution_time', 'max_memory', 'max_output_bytes'];
const isLimits: Guard = (v) => isObject(v) && Object.entries(v).every(([k, x]) => LIMIT_FIELDS.includes(k) && (typeof x === 'number' || typeof x === 'string'));
const isContext: Guard = (v) => isObject(v) && ['locale', 'timezone', 'encoding'].every((k) => v[k] === undefined || isString(v[k]));

const RUNTIMES: readonly Runtime[] = ['python', 'node', 'shell', 'container', 'builtin', 'wasm'];

/** What each field must be for the rules to read it; `satisfies` keeps it in step with the model. */
const GUARDS = {
  entrypoint_id: isString,
  runtime: oneOf(...RUNTIMES),
  runtime_version: isString,
  command: (v) => isString(v) || isStringList(v),
  working_directory: isString,
  runtime_limits: isLimits,
  input_schema: isObject,
  output_schema: isObject,
  error_schema: isObject,
  args_fingerprint_fields: isStringList,
  result_fingerprint_fields: isStringList,
  side_effect_fingerprint_fields: isStringList,
  side_effect_categories: isStringList,
  requested_permissions: isPermissions,
  required_permissions: isPermissions,
  tool_profile_id: isString,
  tool_profile_version: isString,
  requested_determinism_profile: oneOf('strict', 'best_effort', 'none'),
  required_environment_variables: isStringList,
  value_fingerprints: (v) => isObject(v) && Object.values(v).every(isString),
  execution_context: isContext,
  ring: oneOf('core', 'compatibility', 'experimental'),
  determinism_class: oneOf('pure', 'workspace', 'external'),
  capability_profile: isString,
  tool_contract_version: isString,
  namespace_scope_rule: oneOf('run_scope_only', 'declared_scope_subset'),
  declared_namespace_scopes: isStringList,
} satisfies Record<Field, Guard>;

export interface ViewedEntrypoint {
  readonly index: number;
  /** `/entrypoints/<index>` */
  readonly pointer: string;
  readonly ep: EntrypointView;
  /** Fields the document has but the view leaves out (a schema finding, or a wrong type): unknown, not absent. */
  readonly unreadable: ReadonlySet<Field>;
  /** How messages name it: its entrypoint_id, else its position. */
  readonly label: string;
}

/**
 * Does a finding at `found` concern the value at `at` (the value itself or anything inside it)?
 * A finding about a container (too many entrypoints) leaves its members readable: their types
 * are checked by the guards.
 */
function touches(found: string, at: string): boolean {
  return found === at || found.startsWith(`${at}/`);
}

/** The entrypoints of `data` as far as each can be read, given the schema's findings. */
export function entrypointViews(data: Readonly<Record<string, unknown>>, schemaFindings: readonly Diagnostic[]): ViewedEntrypoint[] {
  const eps = Array.isArray(data.entrypoints) ? (data.entrypoints as unknown[]) : [];
  const pointers = schemaFindings.map((d) => d.pointer).filter((p): p is string => p !== undefined);
  const out: ViewedEntrypoint[] = [];
  eps.forEach((raw, index) => {
    if (!isObject(raw)) return;
    const pointer = `/entrypoints/${index}`;
    const view: Record<string, unknown> = {};
    const unreadable = new Set<Field>();
    for (const [field, guard] of Object.entries(GUARDS) as [Field, Guard][]) {
      if (!Object.hasOwn(raw, field)) continue;
      const at = `${pointer}/${field}`;
      if (pointers.some((p) => touches(p, at)) || !guard(raw[field])) unreadable.add(field);
      else view[field] = raw[field];
    }
    const ep = view as EntrypointView;
    out.push({ index, pointer, ep, unreadable, label: ep.entrypoint_id ?? `#${index}` });
  });
  return out;
}

/** The permission values of one scope as a list (a string is a list of one). */
export function scopeValues(p: Permissions | undefined, scope: keyof Permissions): readonly string[] {
  const v = p?.[scope];
  return v === undefined ? [] : typeof v === 'string' ? [v] : v;
}
