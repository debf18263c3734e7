/**
 * Seed 001 §6: any violation discards the output, nothing is accepted in part, and the
 * responsible skill is run again. Generic over how a skill runs and how its output is checked.
 */
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { InternalError } from '../errors.js';

export interface EnforceOptions<T> {
  /** Runs the responsible skill once; `attempt` is 1 for the first run, 2 for the first retry... */
  produce(attempt: number): Promise<T> | T;
  /** The output's findings; any error-severity finding discards the output. */
  check(output: T): Promise<readonly Diagnostic[]> | readonly Diagnostic[];
  /** How many times to run again after a violation: 0 runs once. */
  readonly retries: number;
}

export interface AttemptReport {
  readonly attempt: number;
  /** True for the one accepted output. Discarded outputs are not kept. */
  readonly accepted: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export type EnforceResult<T> =
  | {
      readonly ok: true;
      /** The first output with no violation. */
      readonly value: T;
      readonly attempts: readonly AttemptReport[];
      /** A CONTRACT_OUTPUT_DISCARDED warning per discarded attempt, and the accepted output's warnings. */
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      readonly attempts: readonly AttemptReport[];
      /** Every violation of every attempt (messages prefixed `attempt k/n:`), then CONTRACT_RETRIES_EXHAUSTED. */
      readonly diagnostics: readonly Diagnostic[];
    };

/** Runs `produce` up to 1 + `retries` times and returns the first output `check` finds no error in. */
export async function enforceOutput<T>(opts: EnforceOptions<T>): Promise<EnforceResult<T>> {
  if (!Number.isSafeInteger(opts.retries) || opts.retries < 0) throw new InternalError(`retries must be a non-negative integer, not ${opts.retries}`);
  const runs = opts.retries + 1;
  const attempts: AttemptReport[] = [];
  const notes: Diagnostic[] = [];
  for (let attempt = 1; attempt <= runs; attempt++) {
    const output = await opts.produce(attempt);
    const found = [...(await opts.check(output))];
    if (!hasErrors(found)) {
      attempts.push({ attempt, accepted: true, diagnostics: found });
      return { ok: true, value: output, attempts, diagnostics: [...notes, ...found] };
    }
    attempts.push({ attempt, accepted: false, diagnostics: found });
    const errors = found.filter((d) => d.severity === 'error').length;
    notes.push(
      diag('CONTRACT_OUTPUT_DISCARDED', `attempt ${attempt}/${runs}: output discarded (${errors} violation${errors === 1 ? '' : 's'})`, {
        hint: attempt < runs ? 'the skill is run again' : 'no retry left',
      }),
    );
  }
  const all = attempts.flatMap((a) => a.diagnostics.map((d) => ({ ...d, message: `attempt ${a.attempt}/${runs}: ${d.message}` })));
  all.push(
    diag('CONTRACT_RETRIES_EXHAUSTED', `the output violated its contract on all ${runs} attempt${runs === 1 ? '' : 's'}`, {
      hint: 'every violation of every attempt is listed above; fix the skill, or raise --retries if it is not deterministic',
    }),
  );
  return { ok: false, attempts, diagnostics: all };
}
