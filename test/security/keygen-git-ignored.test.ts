// Threat: keygen's secret key is committed and pushed with the project.
// keygen writes the secret key to `.skillctl/keys/<signer>.key` in the project, and the docs say
// `.skillctl/` is git-ignored: it was in skillctl's own checkout only. In any other project
// `git add -A` staged `.skillctl/keys/alice.key`, and the next push published alice's signing
// key to everyone who can read the repository. keygen now writes `.skillctl/keys/.gitignore`
// (`*`) before the key, rewriting one a cloned repository committed there to let keys through.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { git, skillctlIn } from '../helpers/git-pins.js';
import { makeProject, removeDir } from '../helpers/project.js';

/** The paths `git add -A` stages below `.skillctl/keys/`, other than its `.gitignore`. */
function stagedKeys(root: string): string[] {
  git(root, ['add', '-A']);
  return git(root, ['diff', '--cached', '--name-only'])
    .stdout.split('\n')
    .filter((p) => p.startsWith('.skillctl/keys/') && p !== '.skillctl/keys/.gitignore');
}

describe('keygen in a git work tree', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeProject();
    git(root, ['init', '-q', '-b', 'main']);
  });
  afterEach(async () => removeDir(root));

  it('the secret key is ignored: git add -A stages the public key, not the secret one', () => {
    const r = skillctlIn(root, ['keygen', '--signer', 'alice']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(stagedKeys(root), []);
    assert.equal(git(root, ['check-ignore', '-q', '.skillctl/keys/alice.key'], false).code, 0);
    assert.match(git(root, ['diff', '--cached', '--name-only']).stdout, /pins\/public-keys\.json/);
  });

  it('a cloned repository whose ignore files let keys through (a committed .skillctl/keys/.gitignore, a root !rule): still ignored', async () => {
    await mkdir(join(root, '.skillctl', 'keys'), { recursive: true });
    await writeFile(join(root, '.skillctl', 'keys', '.gitignore'), '!*\n');
    await writeFile(join(root, '.gitignore'), '!.skillctl/\n!.skillctl/keys/*.key\n');
    git(root, ['add', '-A']);
    git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--no-verify', '-m', 'clone']);
    const r = skillctlIn(root, ['keygen', '--signer', 'bob']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(stagedKeys(root), []);
  });
});
