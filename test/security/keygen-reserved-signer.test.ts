// Threat: keygen says a signer's key was added to the keys file when it was not, or leaves a keys file no command reads again.
// Signer ids matched [A-Za-z0-9._-]{1,128}, which takes `__proto__`, `constructor` and
// `prototype`. keygen rendered the keys file through a plain object: `__proto__` does not take a
// string, so `keygen --signer __proto__` printed "public key … in pins/public-keys.json", wrote
// the secret key and left the key out; `constructor` was written, and the document parser refuses
// it as a key, so every later keygen, pin and verify-pins failed on the project's trust anchors
// (KEYS_INVALID). Such ids are SIGNER_ID_INVALID (exit 2): nothing is written.
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skillctlIn } from '../helpers/git-pins.js';
import { makeProject, removeDir } from '../helpers/project.js';

describe('keygen with a signer id a keys file cannot hold', () => {
  let root: string;
  let keysPath: string;
  before(async () => {
    root = await makeProject();
    keysPath = join(root, 'pins', 'public-keys.json');
    const r = skillctlIn(root, ['keygen', '--signer', 'alice']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => removeDir(root));

  for (const signer of ['__proto__', 'constructor', 'prototype']) {
    it(`--signer ${signer}: SIGNER_ID_INVALID, exit 2, the keys file and key folder unchanged, and keygen still works`, async () => {
      const keys = await readFile(keysPath, 'utf8');
      const r = skillctlIn(root, ['keygen', '--signer', signer, '--json']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /SIGNER_ID_INVALID/);
      assert.equal(await readFile(keysPath, 'utf8'), keys);
      await assert.rejects(access(join(root, '.skillctl', 'keys', `${signer}.key`)), { code: 'ENOENT' });
      const next = skillctlIn(root, ['keygen', '--signer', `bob.${signer.replace(/_/g, '')}`]);
      assert.equal(next.code, 0, next.stdout + next.stderr);
    });
  }
});
