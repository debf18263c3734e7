// provenact's capability-evaluation vectors (fixtures/policy/provenact-capability-eval, unchanged),
// expressed in skillctl's policy format by a small adapter and evaluated by the real loader and
// evaluator. Every case must give the expected allow/deny.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluateCapability, loadPolicy } from '../../../src/core/policy/index.js';
import { fixture } from '../../helpers/paths.js';

interface Ceiling {
  fs?: { read?: string[]; write?: string[] };
  net?: string[];
  env?: string[];
  exec?: boolean;
  time?: boolean;
}
interface Vector {
  name: string;
  policy: { version: 1; trusted_signers: string[]; capability_ceiling: Ceiling };
  cases: { capability: { kind: string; value: string }; expect: 'allow' | 'deny'; note?: string }[];
}

/**
 * provenact ceiling → skillctl policy. `exec: true` (any command) has no skillctl equivalent,
 * by design; `time`/`random`/kv/queue kinds do not exist in skillctl and stay denied.
 */
function adapt(c: Ceiling): Record<string, unknown> {
  if (c.exec === true) throw new Error('exec: true has no skillctl equivalent');
  const permissions: Record<string, unknown> = {};
  if (c.fs?.read) permissions['fs.read'] = c.fs.read;
  if (c.fs?.write) permissions['fs.write'] = c.fs.write;
  if (c.net) permissions['net.http'] = c.net;
  if (c.env) permissions.env = c.env;
  return { version: 1, permissions };
}

const dir = fixture('policy', 'provenact-capability-eval');
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'schema.json');

describe('provenact capability-evaluation vectors', () => {
  it('has the three vector files', () => assert.deepEqual(files.sort(), ['basic.json', 'fs-boundary.json', 'normalization-boundary.json']));
  for (const file of files) {
    const v = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Vector;
    describe(`${file} (${v.name})`, () => {
      const loaded = loadPolicy(Buffer.from(JSON.stringify(adapt(v.policy.capability_ceiling))), { file: 'policy.json', baseDir: '/nonexistent' });
      it('the adapted policy loads', () => assert.deepEqual(loaded.diagnostics, []));
      for (const c of v.cases) {
        it(`${c.capability.kind} ${c.capability.value} → ${c.expect}${c.note ? ` (${c.note})` : ''}`, () => {
          assert.ok(loaded.policy);
          const r = evaluateCapability(loaded.policy, c.capability.kind, c.capability.value);
          assert.equal(r.allowed ? 'allow' : 'deny', c.expect, r.allowed ? '' : r.reason);
        });
      }
    });
  }
});
