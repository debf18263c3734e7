// The fingerprints an audit record carries: the documented recipe (docs/formats/audit.md#fingerprints),
// and what a run writes at each outcome.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sha256 } from '../../../src/core/digest/index.js';
import { fieldValue, fingerprintDifferences, fingerprintOf, runFingerprints, verifyAuditLog, auditLine, type BuiltinSkill } from '../../../src/core/run/index.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { engine } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';

describe('fingerprint recipe', () => {
  it('reads dotted paths from the input, the result and the observed effects; missing is null', () => {
    const roots = { input: { task: 'x', deep: { a: [1, 2] }, list: [{ b: 1 }] }, result: { summary: 's' } };
    assert.equal(fieldValue('input.task', roots), 'x');
    assert.deepEqual(fieldValue('input.deep.a', roots), [1, 2]);
    assert.deepEqual(fieldValue('input', roots), roots.input);
    assert.equal(fieldValue('result.summary', roots), 's');
    assert.equal(fieldValue('input.missing', roots), null);
    assert.equal(fieldValue('input.task.length', roots), null);
    assert.equal(fieldValue('input.list.0', roots), null);
    assert.equal(fieldValue('input.toString', roots), null);
    assert.equal(fieldValue('side_effects.ticket_id', roots), null);
    assert.equal(fieldValue('output.x', roots), null);
  });

  it('is sha256 of the RFC 8785 form of { path: value }', () => {
    assert.equal(fingerprintOf(['input.path', 'input.encoding'], { input: { path: 'README.md' } }), sha256('{"input.encoding":null,"input.path":"README.md"}'));
    assert.equal(fingerprintOf([], { input: {} }), sha256('{}'));
    // Key order of the value does not matter; the value does.
    assert.equal(fingerprintOf(['input'], { input: { b: 1, a: 2 } }), fingerprintOf(['input'], { input: { a: 2, b: 1 } }));
    assert.notEqual(fingerprintOf(['input.a'], { input: { a: 1 } }), fingerprintOf(['input.a'], { input: { a: 2 } }));
  });

  it('has no result or side-effect fingerprint without a result, and names what differs', () => {
    const fields = { args: ['input.a'], result: ['result.r'], side_effects: ['input.a', 'result.r'] };
    const none = runFingerprints(fields, { a: 1 });
    assert.equal(none.result, null);
    assert.equal(none.side_effects, null);
    const one = runFingerprints(fields, { a: 1 }, { output: { r: 1 } });
    const two = runFingerprints(fields, { a: 1 }, { output: { r: 2 } });
    assert.equal(one.args, none.args);
    assert.deepEqual(fingerprintDifferences(one, two), ['result', 'side_effects']);
    assert.deepEqual(fingerprintDifferences(one, one), []);
  });
});

describe('fingerprints in run records', () => {
  const tmp = tempDir('skillctl-fp-');
  let root: string;
  const echo: BuiltinSkill = { id: 'test.echo', run: async (input) => ({ status: 'ok', output: { ok: (input as { path: string }).path } }) };
  const fails: BuiltinSkill = { id: 'test.fails', run: async () => ({ status: 'error', error: { code: 'E', message: 'no' } }) };

  before(async () => {
    root = realpathSync(tmp);
    await writeBundle(join(root, 'echo'), { skill_id: 'test.echo', entrypoints: [entry({ command: 'builtin:test.echo', side_effect_fingerprint_fields: ['input.path', 'side_effects.id'] })] });
    await writeBundle(join(root, 'fails'), { skill_id: 'test.fails', entrypoints: [entry({ command: 'builtin:test.fails' })] });
    await writeFile(join(root, 'x'), '');
  });

  it('an ok run records all three; the log still verifies', async () => {
    const lines: string[] = [];
    const r = await engine({ cwd: root, target: join(root, 'echo'), input: { path: 'a' }, builtins: [echo] });
    assert.equal(r.status, 'ok');
    assert.deepEqual(r.record.fingerprints, {
      args: sha256('{"input.path":"a"}'),
      result: sha256('{"result.ok":"a"}'),
      side_effects: sha256('{"input.path":"a","side_effects.id":null}'),
    });
    lines.push(auditLine(r.record));
    assert.deepEqual(verifyAuditLog(lines.join(''), 'audit.jsonl').diagnostics, []);
  });

  it('a failed run has an args fingerprint only; a run without an input has none', async () => {
    const failed = await engine({ cwd: root, target: join(root, 'fails'), input: { path: 'a' }, builtins: [fails] });
    assert.deepEqual(failed.record.fingerprints, { args: sha256('{"input.path":"a"}'), result: null, side_effects: null });
    const missing = await engine({ cwd: root, target: 'no.such.skill', builtins: [] });
    assert.deepEqual(missing.record.fingerprints, { args: null, result: null, side_effects: null });
  });
});
