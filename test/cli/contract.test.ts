// `skillctl validate --contract`, `skillctl contract list` and `skillctl contract show`, run as a user would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { assertSarif } from '../helpers/sarif.js';
import { fixture } from '../helpers/paths.js';

const VALID = 'fixtures/contracts/valid';
const INVALID = 'fixtures/contracts/invalid';
const SCRIPT_INPUT = `${VALID}/script.input.hook-title-thesis.json`;

interface PayloadResult {
  file: string | null;
  contract: string;
  valid: boolean;
  diagnostics: { code: string; pointer?: string; line?: number; file?: string; severity: string; hint?: string }[];
}

function found(r: PayloadResult[]): string[] {
  return r.flatMap((x) => x.diagnostics.map((d) => `${d.code}@${d.pointer ?? ''}`));
}

describe('skillctl validate --contract', () => {
  it('a conforming payload: exit 0', () => {
    const r = skillctl(['validate', '--contract', 'ctr.output', `${VALID}/ctr.output.five-each.json`]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 payload checked against ctr\.output\.v1: all conform/);
  });

  it('a violating payload: exit 4, every violation with pointer, line and rule', () => {
    const r = skillctl(['validate', '--json', '--contract', 'ctr.output.v1', `${INVALID}/ctr.output.thumbnail-7-words.json`]);
    assert.equal(r.code, 4);
    const doc = json<{ payloads: PayloadResult[] }>(r).payloads;
    assert.equal(doc.length, 1);
    assert.equal(doc[0]?.valid, false);
    assert.equal(doc[0]?.contract, 'ctr.output.v1');
    assert.deepEqual(found(doc), ['PAYLOAD_TOO_MANY_WORDS@/thumbnail_texts/3']);
    const d = doc[0]?.diagnostics[0];
    assert.equal(d?.file, `${INVALID}/ctr.output.thumbnail-7-words.json`);
    assert.ok(typeof d?.line === 'number' && d.line > 1);
    assert.equal(d?.hint, 'rule: ctr.output.v1#/$defs/thumbnail_text/maxWords = 6');
  });

  it('reads the payload from stdin with - or with no path', () => {
    const bytes = readFileSync(fixture('contracts', 'invalid', 'eval.output.fail-without-reason.json'));
    for (const args of [['-'], []]) {
      const r = skillctl(['validate', '--contract', 'eval.output', '--json', ...args], { input: bytes });
      assert.equal(r.code, 4, r.stderr);
      const doc = json<{ payloads: PayloadResult[] }>(r).payloads;
      assert.equal(doc[0]?.file, '-');
      assert.deepEqual(found(doc), ['PAYLOAD_REQUIRED_IF@/failure_reason']);
    }
  });

  it('C1: a markdown-fenced payload is not JSON, with a hint to drop the fence', () => {
    const r = skillctl(['validate', '--json', '--contract', 'ctr.output', `${INVALID}/ctr.output.markdown-fenced.json`]);
    assert.equal(r.code, 4);
    const d = json<{ payloads: PayloadResult[] }>(r).payloads[0]?.diagnostics[0];
    assert.equal(d?.code, 'PAYLOAD_NOT_JSON');
    assert.match(d?.hint ?? '', /code fence/);
  });

  it('checks several payloads and reports each', () => {
    const r = skillctl(['validate', '--json', '--contract', 'eval.output', `${VALID}/eval.output.pass-with-null-reason.json`, `${INVALID}/eval.output.confidence-1.2.json`]);
    assert.equal(r.code, 4);
    assert.deepEqual(json<{ payloads: PayloadResult[] }>(r).payloads.map((x) => `${x.file ?? ''} ${x.valid}`), [
      `${VALID}/eval.output.pass-with-null-reason.json true`,
      `${INVALID}/eval.output.confidence-1.2.json false`,
    ]);
  });

  it('rules that relate output to input: warnings without --input, checked with it', () => {
    const without = skillctl(['validate', '--json', '--contract', 'script.output', `${INVALID}/script.output.thesis-late.json`]);
    assert.equal(without.code, 0);
    assert.deepEqual(found(json<{ payloads: PayloadResult[] }>(without).payloads), ['PAYLOAD_RULE_UNCHECKED@/script', 'PAYLOAD_RULE_UNCHECKED@/script']);
    const withInput = skillctl(['validate', '--json', '--contract', 'script.output', '--input', SCRIPT_INPUT, `${INVALID}/script.output.thesis-late.json`]);
    assert.equal(withInput.code, 4);
    assert.deepEqual(found(json<{ payloads: PayloadResult[] }>(withInput).payloads), ['PAYLOAD_OFF_SUBJECT@/script']);
    const good = skillctl(['validate', '--contract', 'script.output', '--input', SCRIPT_INPUT, '-'], {
      input: readFileSync(fixture('contracts', 'valid', 'script.output.addresses-thesis-early.json')),
    });
    assert.equal(good.code, 0, good.stdout);
  });

  it('SARIF output names each rule', () => {
    const r = skillctl(['validate', '--format', 'sarif', '--contract', 'ctr.output', `${INVALID}/ctr.output.four-hooks.json`]);
    assert.equal(r.code, 4);
    const sarif = assertSarif(r.stdout);
    assert.deepEqual(sarif.runs[0]?.results.map((x) => x.ruleId), ['PAYLOAD_TOO_FEW_ITEMS']);
  });

  it('user contracts with --contracts', () => {
    const ok = skillctl(['validate', '--contract', 'acme.summary.v1', '--contracts', 'fixtures/contracts/user/good', 'fixtures/contracts/user/payloads/acme.summary.v1.conforms.json']);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    const v2 = skillctl(['validate', '--json', '--contract', 'acme.summary', '--contracts', 'fixtures/contracts/user/good', 'fixtures/contracts/user/payloads/acme.summary.v1.conforms.json']);
    assert.equal(v2.code, 4);
    assert.equal(json<{ payloads: PayloadResult[] }>(v2).payloads[0]?.contract, 'acme.summary.v2');
  });

  it('a malformed contract is a finding (exit 1), not a crash', () => {
    const r = skillctl(['validate', '--json', '--contract', 'acme.unknown_keyword.v1', '--contracts', 'fixtures/contracts/user/malformed', `${VALID}/ctr.output.five-each.json`]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(found(json<{ payloads: PayloadResult[] }>(r).payloads), ['CONTRACT_UNKNOWN_KEYWORD@/properties/title/maxWord']);
    const human = skillctl(['validate', '--contract', 'acme.bad_regex', '--contracts', 'fixtures/contracts/user/malformed', `${VALID}/ctr.output.five-each.json`]);
    assert.equal(human.code, 1);
    assert.match(human.stdout, /CONTRACT_MALFORMED/);
    assert.match(human.stdout, /no payload checked/);
  });

  const usage: [string, string[], string][] = [
    ['an unknown contract', ['validate', '--contract', 'nope.output', `${VALID}/ctr.output.five-each.json`], 'CONTRACT_NOT_FOUND'],
    ['--contracts without --contract', ['validate', '--contracts', 'fixtures/contracts/user/good', 'x.json'], 'USAGE'],
    ['--fix with --contract', ['validate', '--fix', '--contract', 'ctr.output', `${VALID}/ctr.output.five-each.json`], 'USAGE'],
    ['a missing contracts directory', ['validate', '--contract', 'ctr.output', '--contracts', 'no/such/dir', `${VALID}/ctr.output.five-each.json`], 'INPUT_NOT_FOUND'],
    ['an --input that is not JSON', ['validate', '--contract', 'script.output', '--input', 'README.md', `${VALID}/script.output.addresses-thesis-early.json`], 'INPUT_UNREADABLE'],
    ['stdin as both payload and --input', ['validate', '--contract', 'script.output', '--input', '-', '-'], 'USAGE'],
  ];
  for (const [what, args, code] of usage) {
    it(`${what}: exit 2 with ${code}`, () => {
      const r = skillctl([...args, '--json']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(json<{ error: { code: string } }>(r).error.code, code);
    });
  }

  it('a missing payload file: exit 2, and the other files are still checked', () => {
    const r = skillctl(['validate', '--json', '--contract', 'ctr.output', 'no-such.json', `${INVALID}/ctr.output.four-hooks.json`]);
    assert.equal(r.code, 2);
    assert.deepEqual(found(json<{ payloads: PayloadResult[] }>(r).payloads), ['INPUT_NOT_FOUND@', 'PAYLOAD_TOO_FEW_ITEMS@/hooks']);
    assert.deepEqual(json<{ payloads: { valid: boolean | null }[] }>(r).payloads.map((d) => d.valid), [null, false]);
    const human = skillctl(['validate', '--contract', 'ctr.output', 'no-such.json', `${INVALID}/ctr.output.four-hooks.json`]);
    assert.match(human.stdout, /1 payload checked against ctr\.output\.v1: 1 violates it; 1 could not be read;/);
  });
});

describe('skillctl contract list', () => {
  it('lists the nine built-in contracts: exit 0', () => {
    const r = skillctl(['contract', 'list', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = json<{ contracts: { name: string; origin: string; id: string }[]; rejected: unknown[]; diagnostics: unknown[] }>(r);
    assert.equal(doc.contracts.length, 9);
    assert.ok(doc.contracts.every((c) => c.origin === 'builtin' && c.id.startsWith('https://unpkg.com/skillctl/schemas/contracts/')));
    assert.deepEqual(doc.diagnostics, []);
    const human = skillctl(['contract', 'list']);
    assert.match(human.stdout, /ctr\.output\.v1\s+built-in\s+CTRSkill output/);
  });

  it('reports every malformed user contract: exit 1', () => {
    const r = skillctl(['contract', 'list', '--json', '--contracts', 'fixtures/contracts/user/good', '--contracts', 'fixtures/contracts/user/malformed']);
    assert.equal(r.code, 1);
    const doc = json<{ contracts: { name: string }[]; rejected: { file: string }[]; diagnostics: { code: string }[] }>(r);
    assert.equal(doc.contracts.length, 11);
    assert.equal(doc.rejected.length, 12);
    assert.deepEqual([...new Set(doc.diagnostics.map((d) => d.code))].sort(), [
      'CONTRACT_DUPLICATE',
      'CONTRACT_MALFORMED',
      'CONTRACT_REF_UNRESOLVED',
      'CONTRACT_UNKNOWN_KEYWORD',
    ]);
  });
});

describe('skillctl contract show', () => {
  it('shows the rules by payload path and code', () => {
    const r = skillctl(['contract', 'show', 'ctr.output']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ctr\.output\.v1/);
    assert.match(r.stdout, /\/thumbnail_texts\/\*\s+maxWords 6\s+PAYLOAD_TOO_MANY_WORDS\s+ctr\.output\.v1#\/\$defs\/thumbnail_text/);
  });

  it('--json carries the summary, the rules and the schema', () => {
    const r = skillctl(['contract', 'show', '--json', 'eval.output.v1']);
    assert.equal(r.code, 0);
    const doc = json<{ contract: { name: string; digest: string }; rules: { path: string; keyword: string; code: string }[]; schema: { $id: string } }>(r);
    assert.equal(doc.contract.name, 'eval.output.v1');
    assert.equal(doc.schema.$id, 'https://unpkg.com/skillctl/schemas/contracts/eval.output.v1.schema.json');
    assert.ok(doc.rules.some((x) => x.path === '/' && x.keyword === 'requiredIf' && x.code === 'PAYLOAD_REQUIRED_IF'));
    assert.ok(doc.rules.some((x) => x.path === '/confidence' && x.keyword === 'maximum' && x.code === 'PAYLOAD_OUT_OF_RANGE'));
  });

  it('follows $refs into other contracts', () => {
    const doc = json<{ rules: { path: string; keyword: string; source: string }[] }>(skillctl(['contract', 'show', '--json', 'ctr.input']));
    assert.ok(doc.rules.some((x) => x.path === '/click_thesis' && x.keyword === 'sentenceCount' && x.source === 'click_thesis.v1#'));
    assert.ok(doc.rules.some((x) => x.path === '/research/audience_pain/*' && x.keyword === 'minSpecificWords'));
  });

  it('an unknown name: exit 2; a malformed contract: exit 1 with its findings', () => {
    assert.equal(skillctl(['contract', 'show', 'nope']).code, 2);
    const r = skillctl(['contract', 'show', '--json', 'acme.unknown_keyword', '--contracts', 'fixtures/contracts/user/malformed']);
    assert.equal(r.code, 1);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(r).diagnostics.map((d) => d.code), ['CONTRACT_UNKNOWN_KEYWORD']);
  });

  it('--help shows examples', () => {
    const r = skillctl(['contract', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /skillctl contract show ctr\.output/);
  });
});
