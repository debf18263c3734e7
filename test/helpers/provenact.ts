/** provenact-skills repositories (its lock format and bundles), built with keys generated in the test. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jcsDigest, sha256 } from '../../src/core/digest/index.js';
import { generateSigningKey, parseSecretKey, renderSignatures, signDigest, type SecretKey } from '../../src/core/sign/index.js';
import { git, installSkillctl } from './git-pins.js';
import { tempDir } from './project.js';

export interface Repo {
  root: string;
  keys: Record<string, SecretKey>;
}

export const WASM = Buffer.from('0061736d01000000', 'hex');
/** WASM with a custom section named `evil`: a module of other bytes, for a tampered bundle. */
export const TAMPERED_WASM = Buffer.concat([WASM, Buffer.from('000504', 'hex'), Buffer.from('evil')]);

export async function writeBundle(repo: Repo, id: string, version: string, signers: string[], opts: { wasm?: Buffer } = {}): Promise<Record<string, unknown>> {
  const dir = join(repo.root, 'skills', id, version);
  await mkdir(dir, { recursive: true });
  const wasm = opts.wasm ?? WASM;
  const manifest = { name: id, version, entrypoint: 'run', artifact: sha256(wasm), capabilities: [{ kind: 'fs.read', value: '/tmp' }], signers };
  const hash = jcsDigest(manifest);
  const pub: Record<string, string> = {};
  for (const s of Object.keys(repo.keys).sort()) pub[s] = (repo.keys[s] as SecretKey).publicKey;
  const keysText = JSON.stringify(pub, null, 2) + '\n';
  const signatures = { artifact: manifest.artifact, manifest_hash: hash, signatures: signers.map((s) => ({ signer: s, algorithm: 'ed25519', signature: signDigest(repo.keys[s] as SecretKey, hash) })) };
  await writeFile(join(dir, 'skill.wasm'), wasm);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, 'signatures.json'), renderSignatures(signatures));
  await writeFile(join(dir, 'public-keys.json'), keysText);
  await writeFile(join(dir, 'bundle-meta.json'), JSON.stringify({ artifact: manifest.artifact, manifest_hash: hash, schema_version: '1.0.0' }));
  return { id, version, bundle_dir: `skills/${id}/${version}`, artifact: manifest.artifact, manifest_hash: hash, keys_file: 'public-keys.json', keys_digest: sha256(keysText), signers: [...signers].sort() };
}

export async function writeLock(repo: Repo, skills: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(join(repo.root, 'pins'), { recursive: true });
  const lock = { schema_version: '1.0.0', generated_at: '2026-01-01T00:00:00Z', substrate_pin: { repo: 'provenact', commit: 'a'.repeat(40) }, skills, ...extra };
  await writeFile(join(repo.root, 'pins', 'skills.lock.json'), JSON.stringify(lock, null, 2) + '\n');
}

/** A repository with two bundles signed by two keys, and their lock; returns the lock's entries too. */
export async function provenactRepo(): Promise<{ repo: Repo; entries: Record<string, unknown>[] }> {
  const keys: Record<string, SecretKey> = {};
  for (const s of ['alice.dev', 'codex.release']) keys[s] = newKey(s);
  const repo = { root: await tempDir('skillctl-provenact-'), keys };
  const entries = [await writeBundle(repo, 'echo.minimal', '0.1.0', ['alice.dev', 'codex.release']), await writeBundle(repo, 'fs.read_text', '0.1.0', ['alice.dev', 'codex.release'])];
  await writeLock(repo, entries);
  return { repo, entries };
}

/** A signing key made in the test, for `signer`. */
export function newKey(signer: string): SecretKey {
  return parseSecretKey(generateSigningKey().secretKeyText, signer).key as SecretKey;
}

/**
 * provenactRepo committed on `main` of a git repository, with skillctl installed in it as npm
 * would (node_modules/ git-ignored); `base` is that commit.
 */
export async function committedProvenactRepo(): Promise<{ repo: Repo; entries: Record<string, unknown>[]; base: string }> {
  const { repo, entries } = await provenactRepo();
  await writeFile(join(repo.root, '.gitignore'), 'node_modules/\n');
  await installSkillctl(repo.root);
  git(repo.root, ['init', '-q', '-b', 'main']);
  git(repo.root, ['add', '.']);
  git(repo.root, ['commit', '-q', '-m', 'pinned bundles']);
  return { repo, entries, base: git(repo.root, ['rev-parse', 'HEAD']).stdout.trim() };
}
