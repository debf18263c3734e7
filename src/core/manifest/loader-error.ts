/**
 * `skill.loader_error.v1`: the one structured error a loader returns for a rejected manifest.
 * skillctl reports every finding as a diagnostic; the loader error names the primary one,
 * chosen by the documented precedence (docs/formats/loader-error.md), so tools that expect a
 * single code get the same answer Orket's loader would give.
 */
import type { Code, Diagnostic } from '../diagnostics.js';
import type { BUNDLE_CODES } from '../bundle/codes.js';
import type { DIGEST_CODES } from '../digest/codes.js';
import type { JSON_SCHEMA_CODES } from '../json-schema/codes.js';
import type { MANIFEST_CODES } from './codes.js';

export type LoaderErrorCode =
  | 'ERR_SCHEMA_INVALID'
  | 'ERR_CONTRACT_UNSUPPORTED_VERSION'
  | 'ERR_CONTRACT_INVALID'
  | 'ERR_RUNTIME_UNPINNED'
  | 'ERR_FINGERPRINT_INCOMPLETE'
  | 'ERR_SIDE_EFFECT_UNDECLARED'
  | 'ERR_PERMISSION_UNDECLARED'
  | 'ERR_VALIDATION_INTERNAL';

export type ValidationStage =
  | 'parse'
  | 'schema'
  | 'contract_version'
  | 'contract'
  | 'digest'
  | 'bundle'
  | 'runtime'
  | 'fingerprint'
  | 'side_effect'
  | 'permissions'
  | 'loader';

export interface LoaderError {
  readonly error_code: LoaderErrorCode;
  readonly message: string;
  readonly skill_id: string;
  readonly skill_version: string;
  readonly skill_contract_version_seen: string;
  readonly validation_stage: ValidationStage;
  readonly retryable: boolean;
  readonly entrypoint_id?: string;
}

/** Lower wins. The first seven follow the reference loader's order. */
export const LOADER_PRECEDENCE: readonly LoaderErrorCode[] = [
  'ERR_SCHEMA_INVALID',
  'ERR_CONTRACT_UNSUPPORTED_VERSION',
  'ERR_CONTRACT_INVALID',
  'ERR_RUNTIME_UNPINNED',
  'ERR_FINGERPRINT_INCOMPLETE',
  'ERR_SIDE_EFFECT_UNDECLARED',
  'ERR_PERMISSION_UNDECLARED',
  'ERR_VALIDATION_INTERNAL',
];

type ManifestValidationCode =
  | keyof typeof MANIFEST_CODES
  /** The one payload-contract code the manifest linter reports (rules/contract-refs.ts). */
  | 'CONTRACT_REF_UNRESOLVED'
  | keyof typeof JSON_SCHEMA_CODES
  | keyof typeof BUNDLE_CODES
  | keyof typeof DIGEST_CODES;

interface LoaderClass {
  readonly error_code: LoaderErrorCode;
  readonly stage: ValidationStage;
}

const parse: LoaderClass = { error_code: 'ERR_SCHEMA_INVALID', stage: 'parse' };
const schema: LoaderClass = { error_code: 'ERR_SCHEMA_INVALID', stage: 'schema' };
const contract: LoaderClass = { error_code: 'ERR_CONTRACT_INVALID', stage: 'contract' };
const digest: LoaderClass = { error_code: 'ERR_CONTRACT_INVALID', stage: 'digest' };
const bundle: LoaderClass = { error_code: 'ERR_CONTRACT_INVALID', stage: 'bundle' };
const fingerprint: LoaderClass = { error_code: 'ERR_FINGERPRINT_INCOMPLETE', stage: 'fingerprint' };
const sideEffect: LoaderClass = { error_code: 'ERR_SIDE_EFFECT_UNDECLARED', stage: 'side_effect' };
const permissions: LoaderClass = { error_code: 'ERR_PERMISSION_UNDECLARED', stage: 'permissions' };

export const LOADER_CLASS = {
  MANIFEST_TOO_LARGE: parse,
  MANIFEST_ENCODING: parse,
  MANIFEST_PARSE_ERROR: parse,
  MANIFEST_DUPLICATE_KEY: parse,
  MANIFEST_ALIAS_LIMIT: parse,
  MANIFEST_TOO_DEEP: parse,
  MANIFEST_TOO_MANY_KEYS: parse,
  MANIFEST_TOO_MANY_NODES: parse,
  MANIFEST_FORBIDDEN_KEY: parse,
  MANIFEST_VALUE_NOT_JSON: parse,
  MANIFEST_NOT_MAPPING: parse,
  MANIFEST_YAML_WARNING: parse,
  SCHEMA_REQUIRED: schema,
  SCHEMA_UNKNOWN_FIELD: schema,
  SCHEMA_TYPE: schema,
  SCHEMA_ENUM: schema,
  SCHEMA_FORMAT: schema,
  SCHEMA_CONSTRAINT: schema,
  SCHEMA_VALUE_INVALID: schema,
  SCHEMA_CHECK_TOO_COSTLY: schema,
  SCHEMA_UNCOMPILABLE: schema,
  EMBEDDED_SCHEMA_INVALID: schema,
  CONTRACT_REF_UNRESOLVED: schema,
  CONTRACT_VERSION_UNSUPPORTED: { error_code: 'ERR_CONTRACT_UNSUPPORTED_VERSION', stage: 'contract_version' },
  DIGEST_FORMAT: digest,
  MANIFEST_DIGEST_MISMATCH: digest,
  CONTENT_DIGEST_MISMATCH: digest,
  CONTENT_DIGEST_MISSING: digest,
  CONTENT_DIGEST_UNVERIFIED: digest,
  SKILL_MD_STALE: bundle,
  DIGEST_NOT_CANONICALIZABLE: digest,
  ENTRYPOINT_DUPLICATE_ID: contract,
  TOOL_PROFILE_DUPLICATE_ID: contract,
  PATH_ESCAPES_BUNDLE: contract,
  COMMAND_INVALID: contract,
  EXECUTION_CONTEXT_INVALID: contract,
  RUNTIME_LIMIT_INVALID: contract,
  RUNTIME_UNPINNED: { error_code: 'ERR_RUNTIME_UNPINNED', stage: 'runtime' },
  FINGERPRINT_INCOMPLETE: fingerprint,
  FINGERPRINT_FIELD_UNKNOWN: fingerprint,
  DETERMINISM_REQUEST_UNMET: fingerprint,
  // Info findings: never primary, listed so every manifest code has its stage.
  DETERMINISM_RUNTIME_INEXACT: { error_code: 'ERR_RUNTIME_UNPINNED', stage: 'runtime' },
  DETERMINISM_FINGERPRINT_UNCOVERED: fingerprint,
  DETERMINISM_SIDE_EFFECT_UNCOVERED: sideEffect,
  DETERMINISM_CONTEXT_FROM_HOST: contract,
  SIDE_EFFECT_UNDECLARED: sideEffect,
  SIDE_EFFECT_CATEGORY_UNKNOWN: sideEffect,
  SIDE_EFFECT_CATEGORY_ALIAS: sideEffect,
  PERMISSION_UNDECLARED: permissions,
  PERMISSION_SCOPE_UNKNOWN: permissions,
  PERMISSION_VALUE_INVALID: permissions,
  ENV_NOT_REQUESTED: permissions,
  BUNDLE_NOT_FOUND: bundle,
  BUNDLE_NO_MANIFEST: parse,
  BUNDLE_AMBIGUOUS_MANIFEST: parse,
  BUNDLE_SYMLINK: bundle,
  BUNDLE_SPECIAL_FILE: bundle,
  BUNDLE_PATH_INVALID: bundle,
  BUNDLE_PATH_COLLISION: bundle,
  BUNDLE_TOO_LARGE: bundle,
  BUNDLE_UNREADABLE: { error_code: 'ERR_VALIDATION_INTERNAL', stage: 'loader' },
  BUNDLE_ROOT_CHANGED: { error_code: 'ERR_VALIDATION_INTERNAL', stage: 'loader' },
} as const satisfies Record<ManifestValidationCode, LoaderClass>;

/** The stage a manifest code belongs to; undefined for codes the manifest linter never reports. */
export function stageOf(code: Code): ValidationStage | undefined {
  return (LOADER_CLASS as Partial<Record<Code, LoaderClass>>)[code]?.stage;
}

function classOf(code: Code): LoaderClass {
  return (LOADER_CLASS as Partial<Record<Code, LoaderClass>>)[code] ?? { error_code: 'ERR_VALIDATION_INTERNAL', stage: 'loader' };
}

function str(v: unknown): string {
  return typeof v === 'string' && v.trim() !== '' ? v : 'unknown';
}

/** The loader error for a manifest's diagnostics, or undefined when there is no error. */
export function toLoaderError(data: unknown, diagnostics: readonly Diagnostic[]): LoaderError | undefined {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return undefined;
  const rank = (d: Diagnostic): number => LOADER_PRECEDENCE.indexOf(classOf(d.code).error_code);
  const primary = errors.reduce((best, d) => (rank(d) < rank(best) ? d : best));
  const cls = classOf(primary.code);
  const obj = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const epIndex = /^\/entrypoints\/(\d+)(?:\/|$)/.exec(primary.pointer ?? '')?.[1];
  const eps = Array.isArray(obj.entrypoints) ? obj.entrypoints : [];
  const ep = epIndex === undefined ? undefined : (eps[Number(epIndex)] as Record<string, unknown> | undefined);
  const epId = ep !== null && typeof ep === 'object' ? ep.entrypoint_id : undefined;
  const others = errors.length - 1;
  const message =
    `${primary.code}: ${primary.message}` +
    (primary.hint !== undefined ? `. Fix: ${primary.hint}` : '') +
    (others > 0 ? ` (and ${others} more error${others === 1 ? '' : 's'}; run skillctl validate for all of them)` : '');
  return {
    error_code: cls.error_code,
    message,
    skill_id: str(obj.skill_id),
    skill_version: str(obj.skill_version),
    skill_contract_version_seen: str(obj.skill_contract_version),
    validation_stage: cls.stage,
    // Only a failure to read the bundle can pass on retry; a contract fault needs a new manifest.
    retryable: cls.error_code === 'ERR_VALIDATION_INTERNAL',
    ...(typeof epId === 'string' && epId !== '' ? { entrypoint_id: epId } : {}),
  };
}
