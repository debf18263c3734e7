/**
 * The one diagnostic shape, and the one catalogue of codes.
 *
 * Each concept folder declares its codes in a `codes.ts` (`satisfies CodeCatalogue`, a type from
 * ./code-spec.ts, which imports nothing, so no codes file imports this module back); this module
 * merges them, so a code is declared exactly once and the `Code` type is derived from the
 * declarations. The CLI's own code (INTERNAL) is in src/cli/codes.ts. Every code has an entry
 * in docs/codes.md (a test checks it).
 */
import { ARCHIVE_CODES } from './archive/codes.js';
import { AGENT_SKILL_CODES } from './agent-skills/codes.js';
import { BUNDLE_CODES } from './bundle/codes.js';
import type { CodeCatalogue, Severity } from './code-spec.js';
import { CONTRACT_CODES } from './contracts/codes.js';
import { DIGEST_CODES } from './digest/codes.js';
import { GIT_TREE_CODES } from './git-tree/codes.js';
import { IO_CODES } from './io-codes.js';
import { JSON_SCHEMA_CODES } from './json-schema/codes.js';
import { MANIFEST_CODES } from './manifest/codes.js';
import { MCP_SKILL_CODES } from './mcp-skills/codes.js';
import { POLICY_CODES } from './policy/codes.js';
import { RUN_CODES } from './run/codes.js';
import { PACK_CODES } from './behaviour-packs/codes.js';
import { REGISTRY_CODES } from './registry/codes.js';
import { SKILL_CODES } from './run/skill-codes.js';
import { PIN_CODES } from './pins/codes.js';
import { SIGN_CODES } from './sign/codes.js';
import { OCI_CODES } from './oci/codes.js';
import { WASM_CODES } from './run/wasm/codes.js';

export type { CodeCatalogue, CodeSpec, ExitClass, Severity } from './code-spec.js';

export const CODES = {
  ...IO_CODES,
  ...DIGEST_CODES,
  ...BUNDLE_CODES,
  ...ARCHIVE_CODES,
  ...JSON_SCHEMA_CODES,
  ...MANIFEST_CODES,
  ...POLICY_CODES,
  ...RUN_CODES,
  ...SIGN_CODES,
  ...PIN_CODES,
  ...GIT_TREE_CODES,
  ...AGENT_SKILL_CODES,
  ...CONTRACT_CODES,
  ...PACK_CODES,
  ...REGISTRY_CODES,
  ...SKILL_CODES,
  ...OCI_CODES,
  ...MCP_SKILL_CODES,
  ...WASM_CODES,
} as const satisfies CodeCatalogue;

export type Code = keyof typeof CODES;

export interface Diagnostic {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  /** Path of the file the finding is about, as given by the user or relative to a bundle. */
  readonly file?: string;
  /** RFC 6901 JSON pointer into the document. */
  readonly pointer?: string;
  /** 1-based line and column, from the parser's source positions. */
  readonly line?: number;
  readonly column?: number;
  /** How to fix it. */
  readonly hint?: string;
}

/** Optional parts of a diagnostic; severity defaults to the catalogue's. */
export interface DiagnosticExtra {
  readonly severity?: Severity;
  readonly file?: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
}

export function diag(code: Code, message: string, extra: DiagnosticExtra = {}): Diagnostic {
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = {
    code,
    severity: extra.severity ?? CODES[code].severity,
    message,
  };
  if (extra.file !== undefined) d.file = extra.file;
  if (extra.pointer !== undefined) d.pointer = extra.pointer;
  if (extra.line !== undefined) d.line = extra.line;
  if (extra.column !== undefined) d.column = extra.column;
  if (extra.hint !== undefined) d.hint = extra.hint;
  return d;
}

/** A core result: `ok` only when every step ran and no error was found. */
export interface Result<T> {
  readonly ok: boolean;
  readonly value?: T;
  readonly diagnostics: readonly Diagnostic[];
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

function cmp(a: string | number | undefined, b: string | number | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}

/** Deterministic order: file, pointer, code, then position and message. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      cmp(a.file, b.file) ||
      cmp(a.pointer, b.pointer) ||
      cmp(a.code, b.code) ||
      cmp(a.line, b.line) ||
      cmp(a.column, b.column) ||
      cmp(a.message, b.message),
  );
}

export function withFile(diagnostics: readonly Diagnostic[], file: string): Diagnostic[] {
  return diagnostics.map((d) => (d.file === undefined ? { ...d, file } : d));
}
