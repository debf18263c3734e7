// keygen's public-keys file is read, extended and rewritten: two keygens at once (a script making
// its CI's signers in parallel) each rewrote it from what it had read, so every one said it added
// its key and all but one were lost. The update is made holding a write lock beside the file.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctlAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('skillctl keygen, several at once', () => {
  it('six signers made in parallel: every public key is in public-keys.json, and no lock file is left', async () => {
    const work = tempDir();
    mkdirSync(join(work, '.git'));
    const signers = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const runs = await Promise.all(signers.map((s) => skillctlAsync(['keygen', '--signer', s, '--json'], { cwd: work })));
    for (const r of runs) assert.equal(r.code, 0, r.stdout + r.stderr);
    const keys = JSON.parse(readFileSync(join(work, 'pins', 'public-keys.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(keys).sort(), signers);
    for (const r of runs) {
      const doc = json<{ signer: string; public_key: string }>(r);
      assert.equal(keys[doc.signer], doc.public_key);
    }
    assert.deepEqual(readdirSync(join(work, 'pins')), ['public-keys.json']);
  });
});
