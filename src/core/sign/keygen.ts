/**
 * `keygen`: a new Ed25519 key pair for a signer. The secret key file is created with mode 0600
 * and never overwritten unless asked; the public key is added to the public-keys file, and a
 * signer's existing public key is never replaced unless asked (that would be a change of trust).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { createFileAtomic, writeFileAtomic } from '../fs/index.js';
import { generateSigningKey, loadPublicKeys, renderPublicKeys, SIGNER_ID } from './keys.js';
import { makeDirs } from '../fs/make-dirs.js';

export interface KeygenRequest {
  readonly signer: string;
  /** Where to write the secret key, and how to name it in messages. */
  readonly secretPath: string;
  readonly secretLabel: string;
  /** The public-keys file to add the key to. */
  readonly keysPath: string;
  readonly keysLabel: string;
  /** Overwrite an existing secret key file and replace the signer's public key. */
  readonly force: boolean;
}

export interface KeygenResult {
  readonly ok: boolean;
  readonly signer: string;
  readonly publicKey?: string;
  /** sha256 of the public-keys file as written: the value a lock pins as keys_digest. */
  readonly keysDigest?: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
}

export async function keygen(req: KeygenRequest): Promise<KeygenResult> {
  if (!SIGNER_ID.test(req.signer)) {
    throw new SkillctlError('SIGNER_ID_INVALID', `signer id ${JSON.stringify(req.signer)} is not 1-128 letters, digits, dots, underscores or hyphens`);
  }
  let existing: Buffer | undefined;
  try {
    existing = await readFile(req.keysPath);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${req.keysLabel}: ${errnoCode(err) ?? String(err)}`);
  }
  const keys = existing !== undefined ? loadPublicKeys(existing, req.keysLabel) : { keys: new Map(), diagnostics: [] };
  if (hasErrors(keys.diagnostics)) return { ok: false, signer: req.signer, diagnostics: keys.diagnostics };
  if (keys.keys.has(req.signer) && !req.force) {
    return {
      ok: false,
      signer: req.signer,
      diagnostics: [diag('KEY_EXISTS', `${req.keysLabel} already has a key for ${req.signer}`, { file: req.keysLabel, hint: 'pass --force to replace it (a change of trust: pin again with --trust-keys)' })],
    };
  }
  const pair = generateSigningKey();
  await makeDirs(dirname(req.secretPath), 0o700);
  if (req.force) {
    await writeFileAtomic(req.secretPath, pair.secretKeyText, 0o600);
  } else {
    if (!(await createFileAtomic(req.secretPath, pair.secretKeyText, 0o600))) {
      return { ok: false, signer: req.signer, diagnostics: [diag('KEY_EXISTS', `${req.secretLabel} exists`, { file: req.secretLabel, hint: 'pass --force to overwrite it, or choose another --out' })] };
    }
  }
  const text = renderPublicKeys(keys.keys, req.signer, pair.publicKey);
  await makeDirs(dirname(req.keysPath));
  await writeFileAtomic(req.keysPath, text);
  return { ok: true, signer: req.signer, publicKey: pair.publicKey, keysDigest: sha256(text), diagnostics: [] };
}
