// Threat: the audit record keeps a value the skill chose, from its input, that the record promises
// never to hold ("values a skill was refused at run time", docs/formats/audit.md). Before,
// shell.exec_safe refused a command inside an fs.write path with a reason naming the command's
// full path, taken from the input, and the record kept that reason (its denial and its
// `policy.reason`): an agent's chosen path, in every record, one distinct denial per path. Now the
// record says why without the path; the user's finding still names it. And a bundle refused as
// invalid had its skill_id, version and contract version kept whole (in `request` and in
// `result.loader_error`): strings of 200 KB added 1 MB to the log at each run, toward the 256 MiB
// past which `audit verify` reads nothing. A record now cuts each string at 4096 characters.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AuditEndRecord } from '../../src/core/run/index.js';
import { runTarget, scratch } from '../helpers/attack.js';

describe('threat: a value from the input kept in the audit record', () => {
  it("shell.exec_safe's command inside an fs.write path: POLICY_EXEC_WRITABLE, and the record names no path of the input", async () => {
    const s = scratch('skillctl-attack-record-values-');
    const name = 'tool-INPUT-CHOSEN-NAME';
    mkdirSync(join(s.work, 'bin'));
    writeFileSync(join(s.work, 'bin', name), '#!/bin/sh\necho hi\n');
    chmodSync(join(s.work, 'bin', name), 0o755);
    writeFileSync(join(s.work, 'write.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n  exec: [echo]\n');
    const log = join(s.root, 'audit.jsonl');
    const r = await runTarget('shell.exec_safe', { argv: [join(s.work, 'bin', name)] }, { cwd: s.work, policy: 'write.policy.yaml', audit: log });
    assert.equal(r.exit, 3, r.stdout);
    assert.ok(r.errors.includes('POLICY_EXEC_WRITABLE'), r.stdout);
    assert.match(r.stdout, new RegExp(name), "the user's finding names the command");
    const text = readFileSync(log, 'utf8');
    assert.doesNotMatch(text, new RegExp(name), 'no record names it');
    const end = JSON.parse(text.trimEnd().split('\n').at(-1) as string) as AuditEndRecord;
    assert.equal(end.policy.decision, 'deny');
    assert.deepEqual(end.policy.denials.map((d) => [d.scope, d.code]), [['exec', 'POLICY_EXEC_WRITABLE']]);
  });

  it('a bundle refused as invalid, its ids 200 KB strings: the run is recorded in a few KB', async () => {
    const s = scratch('skillctl-attack-record-size-');
    const big = (c: string): string => c.repeat(200_000);
    mkdirSync(join(s.work, 'huge'));
    writeFileSync(join(s.work, 'huge', 'skill.json'), JSON.stringify({ skill_contract_version: big('C'), skill_id: big('A'), skill_version: big('B'), entrypoints: [] }));
    const log = join(s.root, 'audit.jsonl');
    const r = await runTarget('./huge', {}, { cwd: s.work, audit: log });
    assert.equal(r.status, 'bundle_invalid', r.stdout.slice(0, 2000));
    const text = readFileSync(log, 'utf8');
    assert.ok(text.length < 40_000, `the record is ${text.length} bytes`);
    const end = JSON.parse(text) as AuditEndRecord;
    assert.equal(end.result.status, 'bundle_invalid');
    assert.match(end.result.loader_error?.skill_id ?? '', /^A{4096}…\[195904 more characters\]$/);
  });
});
