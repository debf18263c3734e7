// Every rule of seed 001 has a conforming and a violating payload under fixtures/contracts/, and
// each violating payload yields exactly the codes and pointers of the rule it is named for.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  checkPayloadBytes,
  compileContract,
  findContract,
  loadContractSet,
  type ContractSet,
  type PayloadValidator,
} from '../../../src/core/contracts/index.js';
import { fixture } from '../../helpers/paths.js';

const SCRIPT_INPUT = JSON.parse(readFileSync(fixture('contracts', 'valid', 'script.input.hook-title-thesis.json'), 'utf8')) as unknown;

/** Violating fixtures: the error codes and pointers each must produce, no more, no fewer. */
const INVALID: Readonly<Record<string, readonly string[]>> = {
  // C1: JSON only, no markdown, no prose blobs
  'ctr.output.markdown-fenced.json': ['PAYLOAD_NOT_JSON@'],
  'ctr.output.prose-instead-of-json.json': ['PAYLOAD_NOT_JSON@'],
  'script.output.markdown-script.json': ['PAYLOAD_MARKDOWN@/script'],
  'ctr.output.multiline-title.json': ['PAYLOAD_MULTILINE@/titles/2'],
  // C2: explicit fields only
  'research.input.omitted-nullable-field.json': ['PAYLOAD_FIELD_MISSING@/constraints'],
  'eval.output.extra-field.json': ['PAYLOAD_FIELD_UNKNOWN@/notes'],
  'ctr.output.null-instead-of-list.json': ['PAYLOAD_TYPE@/hooks'],
  'script.input.missing-thesis.json': ['PAYLOAD_FIELD_MISSING@/click_thesis'],
  // C3: deterministic naming, and the source project's drift (a skill returning another shape)
  'script.output.renamed-field.json': [
    'PAYLOAD_FIELD_RENAMED@/full_script',
    'PAYLOAD_FIELD_UNKNOWN@/body',
    'PAYLOAD_FIELD_UNKNOWN@/opening',
    'PAYLOAD_FIELD_UNKNOWN@/payoff',
    'PAYLOAD_FIELD_MISSING@/script',
  ],
  'research.output.foreign-shape.json': [
    'PAYLOAD_FIELD_MISSING@/audience_pain',
    'PAYLOAD_FIELD_MISSING@/controversial_angles',
    'PAYLOAD_FIELD_MISSING@/curiosity_gaps',
    'PAYLOAD_FIELD_MISSING@/emotional_triggers',
    'PAYLOAD_FIELD_UNKNOWN@/context_note',
    'PAYLOAD_FIELD_UNKNOWN@/credibility_boost',
    'PAYLOAD_FIELD_UNKNOWN@/supporting_fact',
  ],
  'eval.output.signals-instead-of-verdict.json': [
    'PAYLOAD_FIELD_MISSING@/confidence',
    'PAYLOAD_FIELD_MISSING@/failure_reason',
    'PAYLOAD_FIELD_MISSING@/result',
    'PAYLOAD_FIELD_UNKNOWN@/signals',
  ],
  // ResearchSkill: at least 3 items, no generic statement
  'research.output.two-items.json': ['PAYLOAD_TOO_FEW_ITEMS@/curiosity_gaps'],
  'research.output.generic-statement.json': ['PAYLOAD_GENERIC@/audience_pain/1'],
  // ClickThesis: one sentence, emotionally charged, time- or consequence-bound
  'click_thesis.two-sentences.json': ['PAYLOAD_SENTENCE_COUNT@'],
  'click_thesis.flat-tone.json': ['PAYLOAD_NOT_EMOTIVE@'],
  'click_thesis.no-stakes.json': ['PAYLOAD_NO_STAKES@'],
  'click_thesis.object-not-string.json': ['PAYLOAD_TYPE@'],
  // CTRSkill: at least 5 items each, thumbnails of at most 6 words, no blank or repeated item
  'ctr.output.four-hooks.json': ['PAYLOAD_TOO_FEW_ITEMS@/hooks'],
  'ctr.output.thumbnail-7-words.json': ['PAYLOAD_TOO_MANY_WORDS@/thumbnail_texts/3'],
  'ctr.output.duplicate-titles.json': ['PAYLOAD_DUPLICATE_ITEM@/titles/3'],
  'ctr.output.blank-hook.json': ['PAYLOAD_BLANK_STRING@/hooks/2'],
  'ctr.input.research-and-thesis-drift.json': ['PAYLOAD_SENTENCE_COUNT@/click_thesis', 'PAYLOAD_TOO_FEW_ITEMS@/research/emotional_triggers'],
  // ScriptSkill: the first 15 seconds address the ClickThesis; no cold open
  'script.output.thesis-late.json': ['PAYLOAD_OFF_SUBJECT@/script'],
  'script.output.opens-elsewhere.json': ['PAYLOAD_COLD_OPEN@/script', 'PAYLOAD_OFF_SUBJECT@/script'],
  'script.output.cold-open.json': ['PAYLOAD_COLD_OPEN@/script'],
  // EvalSkill: FAIL carries failure_reason; confidence in 0.0-1.0; result PASS or FAIL
  'eval.output.fail-without-reason.json': ['PAYLOAD_REQUIRED_IF@/failure_reason'],
  'eval.output.fail-with-blank-reason.json': ['PAYLOAD_BLANK_STRING@/failure_reason'],
  'eval.output.confidence-1.2.json': ['PAYLOAD_OUT_OF_RANGE@/confidence'],
  'eval.output.result-lowercase.json': ['PAYLOAD_ENUM@/result'],
  'eval.input.thumbnail-7-words.json': ['PAYLOAD_TOO_MANY_WORDS@/thumbnail_text'],
};

/** Each seed rule, and the fixtures that prove it: [conforming, violating]. */
const RULES: Readonly<Record<string, readonly [readonly string[], readonly string[]]>> = {
  'C1 JSON only': [['ctr.output.five-each.json'], ['ctr.output.markdown-fenced.json', 'ctr.output.prose-instead-of-json.json']],
  'C1 no markdown, no prose blobs': [['script.output.addresses-thesis-early.json'], ['script.output.markdown-script.json', 'ctr.output.multiline-title.json']],
  'C2 explicit fields, missing = invalid': [
    ['research.input.explicit-nulls.json', 'research.input.all-fields-given.json'],
    ['research.input.omitted-nullable-field.json', 'eval.output.extra-field.json', 'ctr.output.null-instead-of-list.json'],
  ],
  'C3 field names never change': [['script.output.addresses-thesis-early.json'], ['script.output.renamed-field.json', 'research.output.foreign-shape.json']],
  'ResearchSkill arrays >= 3 items': [['research.output.three-specific-items-each.json'], ['research.output.two-items.json']],
  'ResearchSkill no generic statement': [['research.output.three-specific-items-each.json'], ['research.output.generic-statement.json']],
  'ClickThesis exactly one sentence': [
    ['click_thesis.one-sentence-charged-and-bound.json', 'click_thesis.abbreviations-and-decimals.json', 'click_thesis.ellipsis-pause.json'],
    ['click_thesis.two-sentences.json', 'click_thesis.object-not-string.json'],
  ],
  'ClickThesis emotionally charged': [['click_thesis.one-sentence-charged-and-bound.json'], ['click_thesis.flat-tone.json']],
  'ClickThesis time- or consequence-bound': [['click_thesis.ellipsis-pause.json'], ['click_thesis.no-stakes.json']],
  'CTRSkill input carries thesis and research': [['ctr.input.thesis-and-research.json'], ['ctr.input.research-and-thesis-drift.json']],
  'CTRSkill arrays >= 5 items': [['ctr.output.five-each.json'], ['ctr.output.four-hooks.json']],
  'CTRSkill thumbnail <= 6 words': [['ctr.output.thumbnail-6-words.json', 'ctr.output.cjk-thumbnail-6-words.json'], ['ctr.output.thumbnail-7-words.json']],
  'no empty or duplicate strings': [['ctr.output.five-each.json'], ['ctr.output.blank-hook.json', 'ctr.output.duplicate-titles.json']],
  'ScriptSkill input fields': [['script.input.hook-title-thesis.json'], ['script.input.missing-thesis.json']],
  'ScriptSkill first 15 s address the ClickThesis': [['script.output.addresses-thesis-early.json'], ['script.output.thesis-late.json']],
  'ScriptSkill no cold open': [['script.output.addresses-thesis-early.json'], ['script.output.cold-open.json', 'script.output.opens-elsewhere.json']],
  'EvalSkill input fields': [['eval.input.candidate.json'], ['eval.input.thumbnail-7-words.json']],
  'EvalSkill FAIL carries failure_reason': [
    ['eval.output.fail-with-reason.json', 'eval.output.pass-with-null-reason.json'],
    ['eval.output.fail-without-reason.json', 'eval.output.fail-with-blank-reason.json'],
  ],
  'EvalSkill confidence 0.0-1.0': [['eval.output.confidence-0.0.json', 'eval.output.confidence-1.0.json'], ['eval.output.confidence-1.2.json']],
  'EvalSkill result PASS | FAIL': [['eval.output.pass-with-null-reason.json'], ['eval.output.result-lowercase.json', 'eval.output.signals-instead-of-verdict.json']],
};

function contractOf(file: string): string {
  return (/^([a-z_]+(?:\.(?:input|output))?)\./.exec(file) as RegExpExecArray)[1] as string;
}

function files(dir: 'valid' | 'invalid'): string[] {
  return readdirSync(fixture('contracts', dir)).filter((f) => f.endsWith('.json')).sort();
}

describe('contract fixtures', () => {
  let set: ContractSet;
  const validators = new Map<string, PayloadValidator>();
  const check = (dir: 'valid' | 'invalid', file: string): string[] => {
    const v = validators.get(contractOf(file)) as PayloadValidator;
    const context = contractOf(file) === 'script.output' ? { input: SCRIPT_INPUT } : {};
    const r = checkPayloadBytes(readFileSync(fixture('contracts', dir, file)), v, { file, ...context });
    return r.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code}@${d.pointer ?? ''}`);
  };
  before(async () => {
    set = await loadContractSet({ cwd: fixture('contracts') });
    for (const c of set.contracts) {
      const v = await compileContract(set, c);
      assert.ok(!('error' in v), JSON.stringify(v));
      validators.set(c.family, v);
      validators.set(c.name.replace(/\.v1$/, ''), v);
    }
    assert.ok(findContract(set, 'ctr.output') !== undefined);
  });

  for (const file of files('valid')) {
    it(`${file} conforms, with no warning`, () => assert.deepEqual(check('valid', file), []));
  }
  for (const file of files('invalid')) {
    it(`${file} violates exactly its rule`, () => {
      const want = INVALID[file];
      assert.ok(want !== undefined, `add ${file} to the INVALID table`);
      assert.deepEqual(check('invalid', file).sort(), [...want].sort());
    });
  }
  it('every seed rule has a conforming and a violating fixture, and every fixture proves a rule', () => {
    const named = new Set<string>();
    for (const [rule, [good, bad]] of Object.entries(RULES)) {
      assert.ok(good.length > 0 && bad.length > 0, rule);
      for (const f of good) assert.ok(files('valid').includes(f), `${rule}: valid/${f} is missing`);
      for (const f of bad) assert.ok(files('invalid').includes(f), `${rule}: invalid/${f} is missing`);
      for (const f of [...good, ...bad]) named.add(f);
    }
    assert.deepEqual([...files('valid'), ...files('invalid')].filter((f) => !named.has(f)), []);
  });
});
