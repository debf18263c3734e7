// verify-pins --base on a provenact-skills repository (its lock at base and head): the comparison
// skillctl locks get, mapped to provenact's entries (src/core/pins/against-base-provenact.ts).
// Before, two provenact locks were not compared at all: a pull request that re-pinned an entry to
// a tampered bundle, dropped a signer an entry required, swapped an entry's keys, moved
// substrate_pin or removed an entry and re-added it changed passed CI's `--rev HEAD --base main`
// and the pre-commit framework's range hooks (scripts/verify_pins.sh, scripts/pre-commit-hook.sh).
// Real git repositories in temp dirs, bundles signed by keys made in the test; the same attack
// under keys the change generates is test/security/daily-loop.test.ts's.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { renderSignatures, type SignaturesDoc } from '../../src/core/sign/index.js';
import { errorCodes, git, sh, skillctlIn, type Ran } from '../helpers/git-pins.js';
import { ROOT } from '../helpers/paths.js';
import { removeDir } from '../helpers/project.js';
import { committedProvenactRepo, newKey, TAMPERED_WASM, writeBundle, writeLock, type Repo } from '../helpers/provenact.js';

const repos: string[] = [];
async function repo(): Promise<{ repo: Repo; entries: Record<string, unknown>[]; base: string }> {
  const r = await committedProvenactRepo();
  repos.push(r.repo.root);
  return r;
}
const commit = (root: string, message: string): void => {
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '--no-verify', '-m', message]);
};
/** [code, pointer] of each finding of `verify-pins --json`. */
const findings = (r: Ran): string[][] => (JSON.parse(r.stdout) as { diagnostics: { code: string; pointer?: string }[] }).diagnostics.map((d) => [d.code, d.pointer ?? '']);
/** `verify-pins --rev HEAD` alone passes (the lock vouches for itself); against main it is exit 1 with `want`. */
function refusedAgainstMain(root: string, want: string[][], extra: readonly string[] = []): void {
  const alone = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', ...extra]);
  assert.equal(alone.code, 0, alone.stdout + alone.stderr);
  const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', 'main', '--json', ...extra]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.deepEqual(findings(r), want);
}
const REPINNED = [
  ['PIN_IMMUTABLE', '/skills/0/artifact'],
  ['PIN_IMMUTABLE', '/skills/0/manifest_hash'],
];

/** echo.minimal 0.1.0 rebuilt from a tampered wasm, signed by `repo`'s keys, and the lock re-pinned to it. */
async function repin(r: Repo, entries: Record<string, unknown>[]): Promise<void> {
  entries[0] = await writeBundle(r, 'echo.minimal', '0.1.0', ['alice.dev', 'codex.release'], { wasm: TAMPERED_WASM });
  await writeLock(r, entries);
}

describe('verify-pins --base: a provenact lock against the base\'s provenact lock', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('an entry re-pinned to a tampered bundle is PIN_IMMUTABLE, exit 1; the same lock and a new version are exit 0', async () => {
    const { repo: r, entries } = await repo();
    assert.equal(skillctlIn(r.root, ['verify-pins', '--rev', 'main', '--base', 'main']).code, 0);
    // A release: a new version under the keys the base trusts.
    git(r.root, ['checkout', '-q', '-b', 'release']);
    await writeLock(r, [...entries, await writeBundle(r, 'echo.minimal', '0.2.0', ['alice.dev', 'codex.release'], { wasm: TAMPERED_WASM })]);
    commit(r.root, 'echo.minimal 0.2.0');
    const release = skillctlIn(r.root, ['verify-pins', '--rev', 'HEAD', '--base', 'main']);
    assert.equal(release.code, 0, release.stdout + release.stderr);

    git(r.root, ['checkout', '-q', '-b', 'repin', 'main']);
    await repin(r, entries);
    commit(r.root, 're-pin echo.minimal 0.1.0');
    refusedAgainstMain(r.root, REPINNED);
  });

  it('trust weakened on entries kept: a signer dropped, a key added to the keys file, another substrate_pin: PIN_TRUST_CHANGED', async () => {
    const { repo: r, entries } = await repo();
    git(r.root, ['checkout', '-q', '-b', 'pr']);
    // echo.minimal: codex.release's signature and requirement dropped, the manifest unchanged
    // (it still declares both), verified with MIN_SIGNERS 1.
    const sigPath = join(r.root, 'skills', 'echo.minimal', '0.1.0', 'signatures.json');
    const sigs = JSON.parse(await readFile(sigPath, 'utf8')) as SignaturesDoc;
    await writeFile(sigPath, renderSignatures({ ...sigs, signatures: sigs.signatures.filter((s) => s.signer === 'alice.dev') }));
    entries[0] = { ...entries[0], signers: ['alice.dev'] };
    // fs.read_text: mallory's key added to its keys file, and the new digest recorded.
    const keysPath = join(r.root, 'skills', 'fs.read_text', '0.1.0', 'public-keys.json');
    const keys = JSON.parse(await readFile(keysPath, 'utf8')) as Record<string, string>;
    const keysText = JSON.stringify({ ...keys, 'mallory.dev': newKey('mallory.dev').publicKey }, null, 2) + '\n';
    await writeFile(keysPath, keysText);
    entries[1] = { ...entries[1], keys_digest: sha256(keysText) };
    await writeLock(r, entries, { substrate_pin: { repo: 'provenact', commit: 'b'.repeat(40) } });
    commit(r.root, 'the pull request');
    refusedAgainstMain(
      r.root,
      [
        ['PIN_TRUST_CHANGED', '/skills/0/signers'],
        ['PIN_TRUST_CHANGED', '/skills/1/keys_digest'],
        ['PIN_TRUST_CHANGED', '/substrate_pin'],
      ],
      ['--min-signers', '1'],
    );
  });

  // The keys file the base's entries pin gives alice's key a second id (alice.ci). A new
  // version signed by alice alone, as both ids, was two signers to --base, as many as every entry
  // of the base requires (until the stop of 2026-12-01); by key it is one. Verified with
  // MIN_SIGNERS 1, which the entry alone meets (under provenact's default of 2 it fails anyway).
  it('a new version signed by one key under two ids of a keys file the base trusts: PIN_TRUST_CHANGED at its signers', async () => {
    const { repo: r, entries } = await repo();
    r.keys['alice.ci'] = r.keys['alice.dev'] as (typeof r.keys)[string];
    for (const [i, e] of entries.entries()) entries[i] = await writeBundle(r, String(e.id), String(e.version), ['alice.dev', 'codex.release']);
    await writeLock(r, entries);
    commit(r.root, 'alice.ci: the CI runner signs with alice.dev\'s key');
    git(r.root, ['checkout', '-q', '-b', 'pr']);
    await writeLock(r, [...entries, await writeBundle(r, 'echo.minimal', '0.2.0', ['alice.ci', 'alice.dev'], { wasm: TAMPERED_WASM })]);
    commit(r.root, 'echo.minimal 0.2.0');
    refusedAgainstMain(r.root, [['PIN_TRUST_CHANGED', '/skills/2/signers']], ['--min-signers', '1']);
  });

  it('an entry removed in one commit and re-added changed in the next', async () => {
    const { repo: r, entries } = await repo();
    git(r.root, ['checkout', '-q', '-b', 'pr']);
    await rm(join(r.root, 'skills', 'echo.minimal'), { recursive: true });
    await writeLock(r, entries.slice(1));
    commit(r.root, 'remove echo.minimal');
    await repin(r, entries);
    commit(r.root, 'add echo.minimal again');
    refusedAgainstMain(r.root, REPINNED);
  });

  it('the pre-commit framework\'s range hooks: scripts/verify_pins.sh and scripts/pre-commit-hook.sh refuse a re-pin; SKILLCTL_HOOK_NO_BASE=1 accepts it', async () => {
    const { repo: r, entries, base } = await repo();
    // provenact-skills repositories run scripts/verify_pins.sh: skillctl's, copied in its place.
    await mkdir(join(r.root, 'scripts'));
    await copyFile(join(ROOT, 'scripts', 'verify_pins.sh'), join(r.root, 'scripts', 'verify_pins.sh'));
    commit(r.root, 'the gate');
    const start = git(r.root, ['rev-parse', 'HEAD']).stdout.trim();
    git(r.root, ['checkout', '-q', '-b', 'pr']);
    await repin(r, entries);
    commit(r.root, 're-pin echo.minimal 0.1.0');
    // The pre-push stage (and `pre-commit run --from-ref --to-ref` in CI) names the range.
    const range = { PRE_COMMIT: '1', PRE_COMMIT_FROM_REF: start, PRE_COMMIT_TO_REF: 'HEAD' };
    const script = sh(r.root, 'sh', ['scripts/verify_pins.sh'], { env: range });
    assert.equal(script.code, 1, script.stdout + script.stderr);
    assert.deepEqual(errorCodes(script.stdout), ['PIN_IMMUTABLE', 'PIN_IMMUTABLE']);
    assert.match(script.stderr, new RegExp(`^skillctl verify-pins: comparing the lock with base ${start} `));
    const accepted = sh(r.root, 'sh', ['scripts/verify_pins.sh'], { env: { ...range, SKILLCTL_HOOK_NO_BASE: '1' } });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);

    const hook = sh(r.root, 'sh', [join(ROOT, 'scripts', 'pre-commit-hook.sh'), 'verify-pins'], { env: { PRE_COMMIT_FROM_REF: base, PRE_COMMIT_TO_REF: 'HEAD' } });
    assert.equal(hook.code, 1, hook.stdout + hook.stderr);
    assert.deepEqual(errorCodes(hook.stdout), ['PIN_IMMUTABLE', 'PIN_IMMUTABLE']);
  });
});
