// Threat: a signature vouches for bytes its signed digest does not cover, so that other code passes
// as signed.
// What `pin --sign` signs is the manifest digest, which covers the bundle's other files only
// through the manifest's `content_digest`; that field is optional (a warning, CONTENT_DIGEST_MISSING).
// A bundle signed without it: anyone without the key rewrote run.js, `pin --replace` kept the
// signers, and verify-pins (min_signers 1) passed the new code as signed by alice (as would a
// vendored copy of someone's signed release with its code changed). Signatures of such a manifest
// are refused: `pin --sign` and `pin` of a signed bundle say SIGNATURES_INVALID (exit 1) and write
// nothing; verify-pins counts none of them (SIGNATURES_INVALID, exit 1).
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderLock, type SkillctlLock } from '../../src/core/pins/index.js';
import { renderSignatures, signDigest, type SecretKey } from '../../src/core/sign/index.js';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { makeKeys } from '../helpers/pins.js';
import { makeProject, removeDir } from '../helpers/project.js';

interface Doc {
  diagnostics: { code: string; severity: string }[];
  skills?: { digests: { files_digest: { actual: string } } }[];
}
const errors = (r: CliRun): string[] => [...new Set(json<Doc>(r).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
const ATTACKER_CODE = 'process.stdout.write(JSON.stringify({ text: "not what alice signed" }));\n';

/** Takes content_digest out of manifests/hello's manifest, manifest_digest recomputed; returns that digest. */
async function dropContentDigest(root: string): Promise<string> {
  const path = join(root, 'manifests', 'hello', 'skill.yaml');
  await writeFile(path, (await readFile(path, 'utf8')).replace(/^content_digest:.*\n/m, '').replace(/^manifest_digest:.*\n/m, ''));
  const v = skillctl(['validate', 'manifests/hello', '--json'], { cwd: root });
  const digest = /"computed": ?"(sha256:[0-9a-f]{64})"/.exec(v.stdout)?.[1];
  assert.ok(digest !== undefined, v.stdout);
  await writeFile(path, (await readFile(path, 'utf8')).replace(/^description:/m, `manifest_digest: ${digest}\ndescription:`));
  const again = skillctl(['validate', 'manifests/hello', '--json'], { cwd: root });
  assert.equal(again.code, 0, again.stdout);
  assert.ok(again.stdout.includes('CONTENT_DIGEST_MISSING'), again.stdout);
  return digest;
}

describe('signatures of a bundle manifest that declares no content_digest', () => {
  let root: string;
  let digest: string;
  let alice: SecretKey;
  const sigPath = (): string => join(root, 'manifests', 'hello', 'signatures.json');
  before(async () => {
    root = await makeProject();
    alice = (await makeKeys(root, ['alice'])).alice as SecretKey;
    digest = await dropContentDigest(root);
  });
  after(async () => removeDir(root));

  it('pin --sign of such a manifest: SIGNATURES_INVALID, exit 1, nothing signed or pinned', async () => {
    const r = skillctl(['pin', 'manifests/hello', '--sign', '.skillctl/keys/alice.key', '--signer', 'alice', '--min-signers', '1', '--json'], { cwd: root });
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(errors(r), ['SIGNATURES_INVALID']);
    await assert.rejects(readFile(sigPath()), { code: 'ENOENT' });
    await assert.rejects(readFile(join(root, 'pins', 'skills.lock.json')), { code: 'ENOENT' });
  });

  it("alice's signature of it, other code beside it: pin --replace and verify-pins count no signer (SIGNATURES_INVALID)", async () => {
    // What alice signed (as pin --sign did before): the manifest digest, and so no file beside it.
    const signatures = renderSignatures({ manifest_hash: digest, signatures: [{ signer: 'alice', algorithm: 'ed25519', signature: signDigest(alice, digest) }] });
    await writeFile(join(root, 'manifests', 'hello', 'run.js'), ATTACKER_CODE);
    // The attacker's code pinned unsigned, then alice's signatures.json put beside it.
    const unsigned = skillctl(['pin', '--all', '--json'], { cwd: root });
    assert.equal(unsigned.code, 0, unsigned.stdout);
    await writeFile(sigPath(), signatures);
    const replaced = skillctl(['pin', 'manifests/hello', '--replace', '--min-signers', '1', '--json'], { cwd: root });
    assert.equal(replaced.code, 1, replaced.stdout);
    assert.deepEqual(errors(replaced), ['SIGNATURES_INVALID']);

    // A lock that records alice anyway (a branch's, or one pin wrote before): verify-pins refuses it.
    const lockPath = join(root, 'pins', 'skills.lock.json');
    const files = json<Doc>(skillctl(['verify-pins', '--json'], { cwd: root })).skills?.[0]?.digests.files_digest.actual as `sha256:${string}`;
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as SkillctlLock;
    await writeFile(lockPath, renderLock({ ...lock, min_signers: 1, skills: lock.skills.map((p) => ({ ...p, signers: ['alice'], files_digest: files })) }));
    const verified = skillctl(['verify-pins', '--json'], { cwd: root });
    assert.equal(verified.code, 1, verified.stdout);
    assert.deepEqual(errors(verified), ['SIGNATURES_INVALID']);
  });
});
