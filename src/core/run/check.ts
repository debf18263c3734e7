/**
 * The contract check of one attempt: an output must conform to output_schema and a reported
 * error to error_schema, or it is discarded, never returned (seed 001: "Any violation → immediate
 * discard"). Errors decide; a warning (a rule that could not run) does not discard an output.
 */
import { CODES, diag, type Code, type Diagnostic } from '../diagnostics.js';
import type { AttemptOutcome, RunStatus } from './attempt.js';
import type { SchemaChecker } from './contract.js';

export type Compiled = SchemaChecker | { readonly error: Diagnostic };

/** Findings about a value (input, output, error), named after it. */
export function schemaFindings(found: readonly Diagnostic[], file: string, severity?: 'warning'): Diagnostic[] {
  return found.map((d) => ({ ...d, file, ...(severity !== undefined ? { severity } : {}) }));
}

export type Verdict =
  /** The output conforms: accept it (with the warnings about it). */
  | { readonly kind: 'accepted'; readonly value: unknown; readonly warnings: readonly Diagnostic[] }
  /** The skill reported an error that conforms to its error_schema. */
  | { readonly kind: 'reported'; readonly value: unknown; readonly diagnostics: readonly Diagnostic[] }
  /** The output violates output_schema; another attempt may be made. */
  | { readonly kind: 'violated'; readonly findings: readonly Diagnostic[] }
  /** The run ends with this status. */
  | { readonly kind: 'final'; readonly status: RunStatus; readonly diagnostics: readonly Diagnostic[] };

export function checkAttempt(outcome: Exclude<AttemptOutcome, { kind: 'failed' }>, schemas: readonly [Compiled, Compiled], input: unknown, runtime: string | undefined): Verdict {
  const [outputSchema, errorSchema] = schemas;
  const schema = outcome.kind === 'output' ? outputSchema : errorSchema;
  const which = outcome.kind === 'output' ? 'output_schema' : 'error_schema';
  if ('error' in schema) {
    return { kind: 'final', status: 'bundle_invalid', diagnostics: [{ ...schema.error, pointer: `/${which}` }, diag('RUN_BUNDLE_INVALID', `the ${which} cannot be compiled`)] };
  }
  const all = schema.check(outcome.value, { input });
  const errors = all.filter((d) => d.severity === 'error');
  if (outcome.kind === 'output') {
    return errors.length === 0 ? { kind: 'accepted', value: outcome.value, warnings: schemaFindings(all, 'output') } : { kind: 'violated', findings: errors };
  }
  if (errors.length > 0) {
    return {
      kind: 'final',
      status: 'error_invalid',
      diagnostics: [diag('RUN_ERROR_INVALID', 'the error the skill reported does not conform to its error_schema; it was discarded'), ...schemaFindings(errors, 'error')],
    };
  }
  const e = (outcome.value ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const what = code !== undefined ? `${code}${typeof e.message === 'string' ? `: ${e.message}` : ''}` : 'an error';
  const diagnostics: Diagnostic[] = [diag('RUN_SKILL_FAILED', `the skill reported ${what}`)];
  // A built-in's error codes are skillctl's own, so each one's exit class says how the run ends
  // (SKILL_TIMED_OUT 124, SKILL_REQUEST_INVALID 2). A process skill's codes are its own words.
  if (runtime === 'builtin' && code !== undefined && Object.hasOwn(CODES, code) && CODES[code as Code].severity === 'error') {
    diagnostics.push(diag(code as Code, typeof e.message === 'string' ? e.message : code));
  }
  return { kind: 'reported', value: outcome.value, diagnostics };
}
