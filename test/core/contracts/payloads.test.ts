// validate --contract in the core: which contract a name chooses, reading payloads, checking them.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkPayloads, chooseContract, loadContractSet, readPayloadFile, type ContractChoice } from '../../../src/core/contracts/index.js';
import type { Diagnostic } from '../../../src/core/diagnostics.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const USER = 'fixtures/contracts/user';

function chosen(choice: ContractChoice): Exclude<ContractChoice, { unknown: true }> {
  assert.ok(!('unknown' in choice));
  return choice;
}

const read = (file: string): Promise<Uint8Array | Diagnostic> => readPayloadFile(ROOT, file);

describe('chooseContract', () => {
  it('takes a family to its highest version, and says when a name chooses nothing', async () => {
    const set = await loadContractSet({ dirs: [`${USER}/good`], cwd: ROOT });
    const c = chooseContract(set, 'acme.summary');
    assert.ok('contract' in c && c.contract.name === 'acme.summary.v2');
    assert.deepEqual(chooseContract(set, 'acme.nothing'), { unknown: true });
  });

  it("gives the findings of a name's unusable files rather than no contract", async () => {
    const set = await loadContractSet({ dirs: [`${USER}/malformed`], cwd: ROOT });
    const c = chooseContract(set, 'acme.bad_keyword_value');
    assert.ok('diagnostics' in c && c.diagnostics.length > 0);
    assert.ok(c.diagnostics.every((d) => d.file === `${USER}/malformed/bad-keyword-value.json`));
  });
});

describe('readPayloadFile', () => {
  it('refuses what it cannot read as a finding, not an exception', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    const missing = await readPayloadFile(dir, 'nope.json');
    const isDir = await readPayloadFile(dir, 'sub');
    assert.ok(!(missing instanceof Uint8Array) && missing.code === 'INPUT_NOT_FOUND');
    assert.ok(!(isDir instanceof Uint8Array) && isDir.code === 'INPUT_NOT_REGULAR_FILE');
  });
});

describe('checkPayloads', () => {
  it('checks each payload in order; one that cannot be read is not checked (valid null)', async () => {
    const set = await loadContractSet({ dirs: [`${USER}/good`], cwd: ROOT });
    const files = [`${USER}/payloads/acme.summary.v1.conforms.json`, `${USER}/payloads/acme.summary.v1.pattern-mismatch.json`, 'missing.json'];
    const r = await checkPayloads({ set, choice: chosen(chooseContract(set, 'acme.summary.v1')), query: 'acme.summary.v1', files, read });
    assert.equal(r.checked, true);
    assert.equal(r.label, 'acme.summary.v1');
    assert.deepEqual(
      r.payloads.map((p) => [p.file, p.valid]),
      [
        [files[0], true],
        [files[1], false],
        ['missing.json', null],
      ],
    );
    assert.ok(r.diagnostics.some((d) => d.code === 'INPUT_NOT_FOUND' && d.file === 'missing.json'));
  });

  it('reads no payload when the contract is not usable', async () => {
    const set = await loadContractSet({ dirs: [`${USER}/malformed`], cwd: ROOT });
    const r = await checkPayloads({
      set,
      choice: chosen(chooseContract(set, 'acme.bad_keyword_value')),
      query: 'acme.bad_keyword_value',
      files: ['x.json'],
      read: () => Promise.reject(new Error('read')),
    });
    assert.equal(r.checked, false);
    assert.deepEqual(r.payloads.map((p) => [p.file, p.valid]), [[`${USER}/malformed/bad-keyword-value.json`, false]]);
  });
});
