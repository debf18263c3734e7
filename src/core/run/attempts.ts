/**
 * Executing an entrypoint until its output is accepted or the retries run out. An output that
 * violates output_schema (or is not JSON) is discarded, never returned, and with retries the
 * entrypoint runs again (seed 001: "Any violation → immediate discard; the agent must re-run the
 * responsible Skill"). A reported error must conform to error_schema.
 */
import { CODES, diag, type Code, type Diagnostic } from '../diagnostics.js';
import { canonicalize, jcsDigest } from '../digest/index.js';
import type { SchemaChecker } from './contract.js';
import type { Attempt, RunStatus } from './attempt.js';
import type { RunRequest, RunResult } from './engine.js';
import type { RunFacts } from './record.js';

const MAX_RETRIES = 3;

/** Findings about a value (input, output, error), named after it. */
export function schemaFindings(found: readonly Diagnostic[], file: string, severity?: 'warning'): Diagnostic[] {
  return found.map((d) => ({ ...d, file, ...(severity !== undefined ? { severity } : {}) }));
}

/** Findings about an output a retry discarded: warnings that say which attempt they are about. */
function discarded(attempt: number, found: readonly Diagnostic[]): Diagnostic[] {
  return schemaFindings(found, 'output', 'warning').map((d) => ({ ...d, message: `attempt ${attempt}: ${d.message}` }));
}

type Compiled = SchemaChecker | { error: Diagnostic };

export async function attemptLoop(
  req: RunRequest,
  execute: () => Promise<Attempt>,
  input: unknown,
  laterSchemas: Promise<[Compiled, Compiled]>,
  diagnostics: Diagnostic[],
  facts: RunFacts,
  end: (status: RunStatus, extra?: { output?: unknown; error?: unknown }) => RunResult,
  setStderr: (s: string | undefined) => void,
): Promise<RunResult> {
  const retries = Math.max(0, Math.min(MAX_RETRIES, Math.floor(req.retries ?? 0)));
  for (let attempt = 1; ; attempt++) {
    const a = await execute();
    facts.attempts = attempt;
    facts.truncated = { stdout: a.stdoutTruncated, stderr: a.stderrTruncated };
    setStderr(a.stderr);
    const [outputSchema, errorSchema] = await laterSchemas;
    const retry = attempt <= retries;
    if (a.outcome.kind === 'failed') {
      if (a.outcome.status === 'output_invalid' && retry) {
        diagnostics.push(diag('RUN_OUTPUT_DISCARDED', `attempt ${attempt}: the output was not JSON; it was discarded`), ...discarded(attempt, a.outcome.diagnostics.filter((d) => d.code !== 'RUN_OUTPUT_INVALID')));
        continue;
      }
      diagnostics.push(...a.outcome.diagnostics);
      return end(a.outcome.status);
    }
    const schema = a.outcome.kind === 'output' ? outputSchema : errorSchema;
    const which = a.outcome.kind === 'output' ? 'output_schema' : 'error_schema';
    if ('error' in schema) {
      diagnostics.push({ ...schema.error, pointer: `/${which}` }, diag('RUN_BUNDLE_INVALID', `the ${which} cannot be compiled`));
      return end('bundle_invalid');
    }
    // Errors only: a warning (a rule that could not run) does not discard the output.
    const all = schema.check(a.outcome.value, { input });
    const findings = all.filter((d) => d.severity === 'error');
    if (a.outcome.kind === 'error') {
      if (findings.length > 0) {
        diagnostics.push(diag('RUN_ERROR_INVALID', "the error the skill reported does not conform to its error_schema; it was discarded"), ...schemaFindings(findings, 'error'));
        return end('error_invalid');
      }
      const e = (a.outcome.value ?? {}) as { code?: unknown; message?: unknown };
      const code = typeof e.code === 'string' ? e.code : undefined;
      const what = code !== undefined ? `${code}${typeof e.message === 'string' ? `: ${e.message}` : ''}` : 'an error';
      diagnostics.push(diag('RUN_SKILL_FAILED', `the skill reported ${what}`));
      // A built-in's error codes are skillctl's own, so each one's exit class says how the run
      // ends (SKILL_TIMED_OUT 124, SKILL_REQUEST_INVALID 2). A process skill's codes are its own words.
      if (facts.runtime === 'builtin' && code !== undefined && Object.hasOwn(CODES, code) && CODES[code as Code].severity === 'error') {
        diagnostics.push(diag(code as Code, typeof e.message === 'string' ? e.message : code));
      }
      return end('skill_error', { error: a.outcome.value });
    }
    if (findings.length === 0) {
      diagnostics.push(...schemaFindings(all, 'output'));
      // The accepted output in canonical key order: the same output prints the same bytes.
      const text = canonicalize(a.outcome.value);
      facts.outputDigest = jcsDigest(a.outcome.value);
      return end('ok', { output: JSON.parse(text) as unknown });
    }
    if (retry) {
      diagnostics.push(diag('RUN_OUTPUT_DISCARDED', `attempt ${attempt}: the output violated output_schema; it was discarded`), ...discarded(attempt, findings));
      continue;
    }
    diagnostics.push(diag('RUN_OUTPUT_INVALID', "the output does not conform to the entrypoint's output_schema; it was discarded"), ...schemaFindings(findings, 'output'));
    return end('output_invalid');
  }
}
