/**
 * A small deterministic content pipeline in the shape of seed 001: an orchestrating agent and
 * four skills (plain functions over the payloads in fixtures/contracts/), each exchange checked
 * against its contracts, and a violating output discarded and its skill run again.
 */
import { readFileSync } from 'node:fs';
import {
  compileContract,
  enforceOutput,
  findContract,
  type AttemptReport,
  type ContractSet,
  type PayloadValidator,
} from '../../src/core/contracts/index.js';
import { hasErrors, type Diagnostic } from '../../src/core/diagnostics.js';
import { fixture } from './paths.js';

export function payload(dir: 'valid' | 'invalid', file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fixture('contracts', dir, file), 'utf8')) as Record<string, unknown>;
}

/** A skill: its contracts' family names and a deterministic function of input and attempt number. */
export interface Skill {
  readonly name: string;
  readonly input: string;
  readonly output: string;
  run(input: unknown, attempt: number): unknown;
}

export interface StepReport {
  readonly skill: string;
  readonly attempts: readonly AttemptReport[];
}

export type PipelineResult =
  | { readonly ok: true; readonly verdict: Record<string, unknown>; readonly steps: readonly StepReport[] }
  | { readonly ok: false; readonly failedAt: string; readonly diagnostics: readonly Diagnostic[]; readonly steps: readonly StepReport[] };

async function compiled(set: ContractSet, name: string): Promise<PayloadValidator> {
  const c = findContract(set, name);
  if (c === undefined) throw new Error(`no contract ${name}`);
  const v = await compileContract(set, c);
  if ('error' in v) throw new Error(v.error.message);
  return v;
}

export const STANDARD_SKILLS = {
  research: { name: 'research', input: 'research.input', output: 'research.output', run: () => payload('valid', 'research.output.three-specific-items-each.json') },
  ctr: { name: 'ctr', input: 'ctr.input', output: 'ctr.output', run: () => payload('valid', 'ctr.output.five-each.json') },
  script: { name: 'script', input: 'script.input', output: 'script.output', run: () => payload('valid', 'script.output.addresses-thesis-early.json') },
  eval: { name: 'eval', input: 'eval.input', output: 'eval.output', run: () => payload('valid', 'eval.output.pass-with-null-reason.json') },
} as const satisfies Record<string, Skill>;

/**
 * The agent: research, then its own click thesis (checked against click_thesis), then CTR,
 * script and eval, each skill's input built from accepted outputs only.
 */
export async function runPipeline(
  set: ContractSet,
  skills: { research: Skill; ctr: Skill; script: Skill; eval: Skill },
  retries: number,
): Promise<PipelineResult> {
  const steps: StepReport[] = [];
  const step = async (skill: Skill, input: unknown): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; diagnostics: readonly Diagnostic[] }> => {
    const inCheck = (await compiled(set, skill.input)).check(input);
    // A bad input is the agent's fault: re-running the skill cannot fix it.
    if (hasErrors(inCheck)) return { ok: false, diagnostics: inCheck };
    const out = await compiled(set, skill.output);
    const r = await enforceOutput({ produce: (attempt) => skill.run(input, attempt), check: (o) => out.check(o, { input }), retries });
    steps.push({ skill: skill.name, attempts: r.attempts });
    return r.ok ? { ok: true, value: r.value as Record<string, unknown> } : { ok: false, diagnostics: r.diagnostics };
  };
  const fail = (failedAt: string, diagnostics: readonly Diagnostic[]): PipelineResult => ({ ok: false, failedAt, diagnostics, steps });

  const research = await step(skills.research, payload('valid', 'research.input.all-fields-given.json'));
  if (!research.ok) return fail('research', research.diagnostics);
  const thesis = JSON.parse(readFileSync(fixture('contracts', 'valid', 'click_thesis.one-sentence-charged-and-bound.json'), 'utf8')) as string;
  const thesisCheck = (await compiled(set, 'click_thesis')).check(thesis);
  if (hasErrors(thesisCheck)) return fail('click_thesis', thesisCheck);
  const ctr = await step(skills.ctr, { click_thesis: thesis, research: research.value });
  if (!ctr.ok) return fail('ctr', ctr.diagnostics);
  const first = (k: string): string => (ctr.value[k] as string[])[0] as string;
  const script = await step(skills.script, { selected_hook: first('hooks'), selected_title: first('titles'), click_thesis: thesis });
  if (!script.ok) return fail('script', script.diagnostics);
  const verdict = await step(skills.eval, {
    click_thesis: thesis,
    hook: first('hooks'),
    title: first('titles'),
    thumbnail_text: first('thumbnail_texts'),
    script: script.value.script,
  });
  if (!verdict.ok) return fail('eval', verdict.diagnostics);
  return { ok: true, verdict: verdict.value, steps };
}
