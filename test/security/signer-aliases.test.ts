// Threat: one signer passes for two where the base branch requires two, through a keys file that
// gives one key two ids.
// The keys file a project trusts may name one key twice (alice, and alice.ci for its CI's
// signatures): min_signers counts distinct keys, so the two ids are one signer. verify-pins --base
// refuses a new version of a skill that requires fewer signers than the base requires for every
// version of it, but counted the ids a pin lists: a pull request signed by alice alone, as alice
// and alice.ci, pinned a changed version of a skill the base pins signed by alice and bob, and
// `verify-pins --rev HEAD --base main` passed it. Signers are counted by key: PIN_TRUST_CHANGED.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { git, RUN_JS, skillctlIn } from '../helpers/git-pins.js';
import { makeKeys, pinPaths } from '../helpers/pins.js';
import { makeProject, removeDir } from '../helpers/project.js';

interface Doc {
  diagnostics: { code: string; severity: string; pointer?: string }[];
}

describe('verify-pins --base with a keys file that names one key twice', () => {
  let root: string;
  before(async () => {
    root = await makeProject();
    const keys = await makeKeys(root, ['alice', 'bob']);
    // The base trusts alice's key under a second id, reviewed and merged on its own.
    const keysPath = join(root, 'pins', 'public-keys.json');
    const pub = JSON.parse(await readFile(keysPath, 'utf8')) as Record<string, string>;
    await writeFile(keysPath, `${JSON.stringify({ alice: pub.alice, 'alice.ci': pub.alice, bob: pub.bob }, null, 2)}\n`);
    const pinned = await pinPaths(root, { sign: { alice: keys.alice as never, bob: keys.bob as never }, minSigners: 0, trustKeys: true });
    assert.ok(pinned.ok, JSON.stringify(pinned.diagnostics));
    await writeFile(join(root, '.gitignore'), '.skillctl/\n');
    git(root, ['init', '-q', '-b', 'main']);
    git(root, ['add', '.']);
    git(root, ['commit', '-q', '-m', 'demo.hello 0.1.0, signed by alice and bob']);
  });
  after(async () => removeDir(root));

  it('a changed version signed by alice alone, as alice and alice.ci: PIN_TRUST_CHANGED, exit 1', async () => {
    git(root, ['checkout', '-q', '-b', 'pull-request']);
    const manifest = join(root, 'manifests', 'hello', 'skill.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('skill_version: 0.1.0', 'skill_version: 0.2.0'));
    await writeFile(join(root, RUN_JS), 'process.stdout.write(JSON.stringify({ text: "alice alone" }));\n');
    assert.equal(skillctlIn(root, ['validate', '--fix', 'manifests/hello']).code, 0);
    const key = '.skillctl/keys/alice.key';
    const pin = skillctlIn(root, ['pin', '--replace', '--sign', key, '--signer', 'alice', '--sign', key, '--signer', 'alice.ci', 'manifests/hello']);
    assert.equal(pin.code, 0, pin.stdout + pin.stderr);
    git(root, ['add', '.']);
    git(root, ['commit', '-q', '--no-verify', '-m', 'demo.hello 0.2.0']);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD']).code, 0, 'the commit alone verifies: the lock vouches for itself');

    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', 'main', '--json']);
    assert.equal(r.code, 1, r.stdout);
    const errors = (JSON.parse(r.stdout) as Doc).diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.pointer]);
    assert.deepEqual(errors, [['PIN_TRUST_CHANGED', '/skills/0/signers']]);
  });
});
