// Threat: a run hides its own audit record with a string that has no canonical form. A record is
// sealed over its RFC 8785 form, which has none for a string holding an unpaired UTF-16 surrogate
// (`"\ud800"` is valid JSON text, not I-JSON). Before, such a string anywhere a record draws on
// made the append throw DIGEST_NOT_CANONICALIZABLE: a node skill that printed `{"x":"\ud800"}`
// had run (its effects kept) and left only its start record, which `audit verify` accepted as a
// run "killed, or still running"; an input (a tool call's arguments under `mcp`), and the
// skill_id of a bundle refused as invalid, left no record at all, a refused `mcp` call included.
// Now an output or input holding one is not JSON to the run (RUN_OUTPUT_NOT_JSON,
// RUN_INPUT_INVALID), and a record stores such a string of a hostile manifest with U+FFFD in
// place of the surrogate: every run ends with its end record, and the log verifies.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { AuditEndRecord, AuditRecord } from '../../src/core/run/index.js';
import { runTarget, scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { skillctl } from '../helpers/cli.js';
import { McpWire, toolErrorCode } from '../helpers/mcp-wire.js';
import { ROOT } from '../helpers/paths.js';

const records = (log: string): AuditRecord[] =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditRecord);

/** The log ends with the end record of the run it started, and `audit verify` finds nothing at all. */
function endsWithItsEnd(log: string): AuditEndRecord {
  const all = records(log);
  const last = all[all.length - 1] as AuditEndRecord;
  assert.equal(last.event, 'end', JSON.stringify(all));
  const v = skillctl(['audit', 'verify', '--json', log]);
  assert.equal(v.code, 0, v.stdout);
  assert.deepEqual((JSON.parse(v.stdout) as { diagnostics: unknown[] }).diagnostics, [], 'no run is left unfinished');
  return last;
}

describe('threat: a string with no canonical form (an unpaired surrogate) keeps a run out of the audit log', () => {
  const s = scratch('skillctl-attack-surrogate-');
  const log = join(s.root, 'audit.jsonl');

  before(async () => {
    // Prints valid JSON text whose string has no canonical form, after an effect of its own.
    await writeBundle(join(s.work, 'lone'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', runtime_limits: { max_execution_time: 10 } })],
      files: { 'main.js': `process.stdout.write('{"ok":"\\\\ud800"}');\n` },
    });
    await writeBundle(join(s.work, 'plain'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', runtime_limits: { max_execution_time: 10 } })],
      files: { 'main.js': `process.stdout.write('{"ok":true}');\n` },
    });
    // A bundle refused as invalid, whose skill_id (kept in the loader error of its record) holds one.
    mkdirSync(join(s.work, 'bad-id'));
    writeFileSync(join(s.work, 'bad-id', 'skill.json'), '{"skill_contract_version":"skill.contract.v1","skill_id":"x\\ud800","skill_version":"0.1.0","entrypoints":[]}\n');
  });

  it("a node skill's output: the run ends output_invalid (RUN_OUTPUT_NOT_JSON), and its end record is written", async () => {
    const r = await runTarget('./lone', {}, { cwd: s.work, audit: log });
    assert.equal(r.status, 'output_invalid', r.stdout + r.stderr);
    assert.equal(r.exit, 4);
    assert.deepEqual(r.errors, ['RUN_OUTPUT_NOT_JSON']);
    const end = endsWithItsEnd(log);
    assert.equal(end.result.status, 'output_invalid');
    assert.equal(end.result.output_digest, null);
  });

  it('an input: the run ends input_invalid (RUN_INPUT_INVALID), recorded', async () => {
    const r = await runTarget('./plain', '{"path":"\\ud800"}', { cwd: s.work, audit: log });
    assert.equal(r.status, 'input_invalid', r.stdout + r.stderr);
    assert.equal(r.exit, 2);
    assert.deepEqual(r.errors, ['RUN_INPUT_INVALID']);
    const end = endsWithItsEnd(log);
    assert.equal(end.result.status, 'input_invalid');
    assert.equal(end.request.input_digest, null);
  });

  it("a bundle's skill_id: the run ends bundle_invalid, recorded with U+FFFD in its place", async () => {
    const r = await runTarget('./bad-id', {}, { cwd: s.work, audit: log });
    assert.equal(r.status, 'bundle_invalid', r.stdout + r.stderr);
    const end = endsWithItsEnd(log);
    assert.equal(end.result.status, 'bundle_invalid');
    assert.equal(end.result.loader_error?.skill_id, 'x\ufffd');
  });

  it('a tool call refused at the approval gate, its arguments holding one: the refusal is recorded', async () => {
    const w = await McpWire.start(s.work, ['--registry', join(ROOT, 'manifests', 'registry'), '--audit', log]);
    try {
      const loaded = await w.request('tools/call', { name: 'capability_skill_load', arguments: { capability_id: 'filesystem' } });
      assert.notEqual((loaded.result as { isError?: boolean }).isError, true, JSON.stringify(loaded));
      const before = records(log).length;
      // Sent as text: the escape reaches the server's JSON parser as it is.
      const id = 'lone-write';
      w.send(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"filesystem__fs_write_patch","arguments":{"unified_diff":"--- /dev/null\\n+++ b/pwned\\n@@ -0,0 +1 @@\\n+\\ud800\\n"}}}`);
      assert.equal(toolErrorCode(await w.answer(id)), 'TOOL_APPROVAL_REQUIRED');
      const after = records(log);
      assert.equal(after.length, before + 1, 'one record: the refusal');
      const refused = endsWithItsEnd(log);
      assert.equal(refused.result.status, 'denied');
      assert.deepEqual(refused.result.codes, ['TOOL_APPROVAL_REQUIRED']);
      assert.equal(refused.request.input_digest, null, 'arguments with no canonical form have no digest');
    } finally {
      await w.close();
    }
  });
});
