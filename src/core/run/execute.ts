/**
 * Executing an entrypoint until its output is accepted or the retries run out. An output that
 * violates output_schema (or is not JSON) is discarded, and with retries the entrypoint runs
 * again (seed 001: "the agent must re-run the responsible Skill").
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize, jcsDigest } from '../digest/index.js';
import type { Attempt } from './attempt.js';
import { checkAttempt, schemaFindings, type Compiled } from './check.js';
import type { RunResult, RunTrail } from './trail.js';

export const MAX_RETRIES = 3;

/** Findings about an output a retry discarded: warnings that say which attempt they are about. */
function discarded(attempt: number, found: readonly Diagnostic[]): Diagnostic[] {
  return schemaFindings(found, 'output', 'warning').map((d) => ({ ...d, message: `attempt ${attempt}: ${d.message}` }));
}

export async function executeAttempts(trail: RunTrail, execute: () => Promise<Attempt>, retries: number, input: unknown, schemas: Promise<readonly [Compiled, Compiled]>): Promise<RunResult> {
  const allowed = Math.max(0, Math.min(MAX_RETRIES, Math.floor(retries)));
  for (let attempt = 1; ; attempt++) {
    const a = await execute();
    trail.facts.attempts = attempt;
    trail.facts.truncated = { stdout: a.stdoutTruncated, stderr: a.stderrTruncated };
    trail.stderr = a.stderr;
    const retry = attempt <= allowed;
    if (a.outcome.kind === 'failed') {
      if (a.outcome.status === 'output_invalid' && retry) {
        // Where the discarded output went wrong stays a finding (about stdout), as a warning.
        const why = a.outcome.diagnostics.map((d) => ({ ...d, severity: 'warning' as const, message: `attempt ${attempt}: ${d.message}` }));
        trail.add(diag('RUN_OUTPUT_DISCARDED', `attempt ${attempt}: the output was not JSON; it was discarded`), ...why);
        continue;
      }
      trail.add(...a.outcome.diagnostics);
      return trail.end(a.outcome.status);
    }
    const verdict = checkAttempt(a.outcome, await schemas, input, trail.facts.runtime);
    switch (verdict.kind) {
      case 'accepted': {
        trail.add(...verdict.warnings);
        // The accepted output in canonical key order: the same output prints the same bytes.
        trail.facts.outputDigest = jcsDigest(verdict.value);
        return trail.end('ok', { output: JSON.parse(canonicalize(verdict.value)) as unknown });
      }
      case 'reported':
        trail.add(...verdict.diagnostics);
        return trail.end('skill_error', { error: verdict.value });
      case 'final':
        trail.add(...verdict.diagnostics);
        return trail.end(verdict.status);
      case 'violated':
        if (retry) {
          trail.add(diag('RUN_OUTPUT_DISCARDED', `attempt ${attempt}: the output violated output_schema; it was discarded`), ...discarded(attempt, verdict.findings));
          continue;
        }
        trail.add(diag('RUN_OUTPUT_INVALID', "the output does not conform to the entrypoint's output_schema; it was discarded"), ...schemaFindings(verdict.findings, 'output'));
        return trail.end('output_invalid');
      default: {
        const never: never = verdict;
        return never;
      }
    }
  }
}
