// Loading contract sets: the built-ins are clean, user contracts are added, and every kind of
// malformed contract is a finding with its code, never an exception.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  BUILTIN_CONTRACT_BASE,
  buildContractSet,
  findContract,
  loadContractSet,
  verifyContractSet,
  type ContractSet,
} from '../../../src/core/contracts/index.js';
import { SkillctlError } from '../../../src/core/errors.js';
import { fixture, ROOT } from '../../helpers/paths.js';

const SEED_CONTRACTS = [
  'click_thesis.v1',
  'ctr.input.v1',
  'ctr.output.v1',
  'eval.input.v1',
  'eval.output.v1',
  'research.input.v1',
  'research.output.v1',
  'script.input.v1',
  'script.output.v1',
];

function findings(set: ContractSet, file: string): string[] {
  return set.diagnostics.filter((d) => d.file?.endsWith(file) === true).map((d) => `${d.code}@${d.pointer ?? ''}`);
}

describe('built-in contracts', () => {
  it('are the nine contracts of seed 001, versioned, with $ids under the package, and no finding', async () => {
    const set = await verifyContractSet(await loadContractSet({ cwd: ROOT }));
    assert.deepEqual(set.diagnostics, []);
    assert.deepEqual(
      set.contracts.map((c) => c.name),
      SEED_CONTRACTS,
    );
    for (const c of set.contracts) {
      assert.equal(c.id, `${BUILTIN_CONTRACT_BASE}${c.name}.schema.json`);
      assert.equal(c.origin, 'builtin');
      assert.equal(c.version, 1);
      assert.match(c.digest, /^sha256:[0-9a-f]{64}$/);
    }
  });
  it('match the files in schemas/contracts/', async () => {
    const onDisk = (await readdir(join(ROOT, 'schemas', 'contracts'))).map((f) => f.replace(/\.schema\.json$/, '')).sort();
    assert.deepEqual(onDisk, SEED_CONTRACTS);
  });
  it('declare every field required and forbid others (C2), at every object level', async () => {
    const set = await loadContractSet({ cwd: ROOT });
    for (const c of set.contracts) {
      const s = c.schema as { type?: string; required?: string[]; properties?: Record<string, unknown>; additionalProperties?: unknown };
      if (s.type !== 'object') continue;
      assert.equal(s.additionalProperties, false, c.name);
      assert.deepEqual([...(s.required ?? [])].sort(), Object.keys(s.properties ?? {}).sort(), c.name);
    }
  });
  it('record which contracts they build on', async () => {
    const set = await loadContractSet({ cwd: ROOT });
    assert.deepEqual(findContract(set, 'ctr.input.v1')?.uses, ['click_thesis.v1', 'research.output.v1']);
    assert.deepEqual(findContract(set, 'eval.input')?.uses, ['click_thesis.v1', 'ctr.output.v1']);
  });
});

describe('user contracts', () => {
  it('are added from --contracts directories; a family name means its highest version', async () => {
    const set = await loadContractSet({ dirs: ['fixtures/contracts/user/good'], cwd: ROOT });
    assert.deepEqual(set.diagnostics, []);
    assert.equal(findContract(set, 'acme.summary')?.name, 'acme.summary.v2');
    assert.equal(findContract(set, 'acme.summary.v1')?.origin, 'user');
    assert.equal(findContract(set, 'https://contracts.example/acme/summary.v1.json')?.name, 'acme.summary.v1');
    assert.equal(findContract(set, 'acme.nothing'), undefined);
    assert.deepEqual(findContract(set, 'acme.summary.v1')?.uses, ['click_thesis.v1']);
  });

  it('each malformed contract is reported with its code and left out; the rest still load', async () => {
    const set = await verifyContractSet(await loadContractSet({ dirs: [fixture('contracts', 'user', 'malformed')], cwd: ROOT }));
    assert.deepEqual(findings(set, 'not-json.json').map((f) => f.split('@')[0]), ['CONTRACT_MALFORMED']);
    assert.deepEqual(findings(set, 'unknown-keyword.json'), ['CONTRACT_UNKNOWN_KEYWORD@/properties/title/maxWord']);
    assert.deepEqual(findings(set, 'nullable-keyword.json'), ['CONTRACT_UNKNOWN_KEYWORD@/properties/reason/nullable']);
    assert.deepEqual(findings(set, 'bad-keyword-value.json'), ['CONTRACT_MALFORMED@/properties/title/maxWords']);
    assert.deepEqual(findings(set, 'unknown-format.json'), ['CONTRACT_MALFORMED@/properties/contact/format']);
    assert.deepEqual(findings(set, 'no-name.json'), ['CONTRACT_MALFORMED@/contract']);
    assert.deepEqual(findings(set, 'relative-id.json'), ['CONTRACT_MALFORMED@/$id']);
    assert.deepEqual(findings(set, 'redefines-builtin.json'), ['CONTRACT_DUPLICATE@/contract']);
    assert.deepEqual(findings(set, 'unresolved-ref.json'), ['CONTRACT_REF_UNRESOLVED@/properties/x/$ref']);
    assert.deepEqual(findings(set, 'depends-on-broken.json'), ['CONTRACT_REF_UNRESOLVED@/properties/x/$ref']);
    assert.deepEqual(findings(set, 'bad-pointer-fragment.json'), ['CONTRACT_REF_UNRESOLVED@/properties/x/$ref']);
    // Found when the contract is loaded, where the pattern is (not only when ajv compiles it).
    assert.deepEqual(findings(set, 'bad-regex.json'), ['CONTRACT_MALFORMED@/properties/code/pattern']);
    assert.deepEqual(set.contracts.map((c) => c.name), SEED_CONTRACTS, 'the built-ins are untouched');
    assert.equal(set.rejected.length, 12);
    const keyword = set.diagnostics.find((d) => d.code === 'CONTRACT_UNKNOWN_KEYWORD' && d.file?.endsWith('unknown-keyword.json') === true);
    assert.match(keyword?.hint ?? '', /maxWords/);
    assert.ok(keyword?.line !== undefined, 'findings in files carry a line');
  });

  it('a redefinition of a built-in contract never replaces it (C3)', async () => {
    const set = await loadContractSet({ dirs: [fixture('contracts', 'user', 'malformed')], cwd: ROOT });
    assert.equal(findContract(set, 'ctr.output.v1')?.origin, 'builtin');
  });

  it('an identical copy of a contract is accepted silently', () => {
    const doc = { $id: 'https://contracts.example/x.json', contract: 'x.v1', type: 'string' };
    const set = buildContractSet([
      { origin: 'user', file: 'a.json', data: doc },
      { origin: 'user', file: 'b.json', bytes: Buffer.from(JSON.stringify(doc)) },
    ]);
    assert.deepEqual(set.diagnostics, []);
    assert.deepEqual(set.contracts.map((c) => `${c.name} ${c.file}`), ['x.v1 a.json']);
  });

  it('a user contract may not take an $id in the namespace of the shipped contracts', () => {
    const set = buildContractSet([{ origin: 'user', file: 'a.json', data: { $id: `${BUILTIN_CONTRACT_BASE}mine.v1.schema.json`, contract: 'mine.v1' } }]);
    assert.deepEqual(set.diagnostics.map((d) => `${d.code}@${d.pointer ?? ''}`), ['CONTRACT_MALFORMED@/$id']);
    assert.deepEqual(set.contracts, []);
  });

  it('two contracts with one $id and different names clash', () => {
    const set = buildContractSet([
      { origin: 'user', file: 'a.json', data: { $id: 'https://contracts.example/x.json', contract: 'x.v1' } },
      { origin: 'user', file: 'b.json', data: { $id: 'https://contracts.example/x.json', contract: 'y.v1' } },
    ]);
    assert.deepEqual(set.diagnostics.map((d) => `${d.code}@${d.pointer ?? ''} ${d.file ?? ''}`), ['CONTRACT_DUPLICATE@/$id b.json']);
  });

  it('contracts that refer to each other load; a cycle through a broken one does not', () => {
    const a = { $id: 'https://c.example/a.json', contract: 'a.v1', properties: { b: { $ref: 'b.json' } } };
    const b = { $id: 'https://c.example/b.json', contract: 'b.v1', properties: { a: { $ref: 'a.json#/properties/b' } } };
    const ok = buildContractSet([
      { origin: 'user', file: 'a.json', data: a },
      { origin: 'user', file: 'b.json', data: b },
    ]);
    assert.deepEqual(ok.diagnostics, []);
    const c = { $id: 'https://c.example/c.json', contract: 'c.v1', properties: { a: { $ref: 'a.json' }, x: { $ref: 'missing.json' } } };
    const a2 = { ...a, properties: { b: { $ref: 'b.json' }, c: { $ref: 'c.json' } } };
    const bad = buildContractSet([
      { origin: 'user', file: 'a.json', data: a2 },
      { origin: 'user', file: 'b.json', data: b },
      { origin: 'user', file: 'c.json', data: c },
    ]);
    assert.deepEqual(bad.contracts, []);
    assert.deepEqual(
      bad.diagnostics.map((d) => `${d.file ?? ''} ${d.code}@${d.pointer ?? ''}`),
      [
        'a.json CONTRACT_REF_UNRESOLVED@/properties/c/$ref',
        'b.json CONTRACT_REF_UNRESOLVED@/properties/a/$ref',
        'c.json CONTRACT_REF_UNRESOLVED@/properties/x/$ref',
      ],
    );
  });

  it('a $ref inside const or enum data is not a reference', () => {
    const set = buildContractSet([
      { origin: 'user', file: 'a.json', data: { $id: 'https://c.example/a.json', contract: 'a.v1', const: { $ref: 'nowhere.json' } } },
    ]);
    assert.deepEqual(set.diagnostics, []);
  });

  it('a missing directory is unreadable input, not a finding', async () => {
    await assert.rejects(loadContractSet({ dirs: ['no/such/dir'], cwd: ROOT }), (e: unknown) => e instanceof SkillctlError && e.code === 'INPUT_NOT_FOUND');
    await assert.rejects(loadContractSet({ dirs: ['package.json'], cwd: ROOT }), (e: unknown) => e instanceof SkillctlError && e.code === 'INPUT_UNREADABLE');
  });

  it('links and oversized files in a contract directory are refused, not followed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skillctl-contracts-'));
    try {
      await symlink(join(ROOT, 'schemas', 'contracts', 'ctr.output.v1.schema.json'), join(dir, 'link.json'));
      await writeFile(join(dir, 'huge.json'), Buffer.alloc(1024 * 1024 + 1, 0x20));
      const set = await loadContractSet({ dirs: [dir], cwd: ROOT });
      assert.deepEqual(set.diagnostics.map((d) => `${d.code} ${(d.file ?? '').split('/').pop() ?? ''}`), ['CONTRACT_MALFORMED huge.json', 'CONTRACT_MALFORMED link.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hostile JSON (prototype keys, duplicate keys, deep nesting) is a finding', () => {
    const cases = [
      '{"$id":"https://c.example/p.json","contract":"p.v1","properties":{"__proto__":{"type":"string"}}}',
      '{"$id":"https://c.example/d.json","contract":"d.v1","contract":"e.v1"}',
      '{"$id":"https://c.example/n.json","contract":"n.v1","allOf":' + '['.repeat(100) + ']'.repeat(100) + '}',
    ];
    const set = buildContractSet(cases.map((text, i) => ({ origin: 'user', file: `${i}.json`, bytes: Buffer.from(text) })));
    assert.deepEqual(set.contracts, []);
    assert.deepEqual(set.diagnostics.map((d) => d.code), ['CONTRACT_MALFORMED', 'CONTRACT_MALFORMED', 'CONTRACT_MALFORMED']);
  });

  it('a contract holding a lone surrogate has no canonical digest: refused with its file, the others load', () => {
    const good = '{"$id":"https://c.example/g.json","contract":"g.v1","type":"object","properties":{},"required":[],"additionalProperties":false}';
    const lone = '{"$id":"https://c.example/s.json","contract":"s.v1","description":"\\ud800","type":"object","properties":{},"required":[],"additionalProperties":false}';
    const set = buildContractSet([good, lone].map((text, i) => ({ origin: 'user', file: `${i}.json`, bytes: Buffer.from(text) })));
    assert.deepEqual(set.diagnostics.map((d) => `${d.code} ${d.file ?? ''}`), ['DIGEST_NOT_CANONICALIZABLE 1.json']);
    assert.ok(set.contracts.some((c) => c.name === 'g.v1'));
    assert.ok(!set.contracts.some((c) => c.name === 's.v1'));
  });
});
