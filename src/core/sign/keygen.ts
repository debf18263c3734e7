/**
 * `keygen`: a new Ed25519 key pair for a signer. The secret key file is created with mode 0600
 * and never overwritten unless asked; the public key is added to the public-keys file, and a
 * signer's existing public key is never replaced unless asked (that would be a change of trust).
 * A key written outside a `.skillctl/keys/` folder (`--out`) is written, with SECRET_FILE_EXPOSED:
 * there a skill granted to read its folder can read it.
 */
import { dirname } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { asOutputWrite, createFileAtomic, describeRefusal, linkBelow, readBounded, refusalCode, writeFileAtomic } from '../fs/index.js';
import { generateSigningKey, KEYS_MAX_BYTES, loadPublicKeys, renderPublicKeys, SIGNER_ID } from './keys.js';
import { makeDirs } from '../fs/make-dirs.js';
import { checkSecretPlace } from '../policy/index.js';

export interface KeygenRequest {
  readonly signer: string;
  /** Where to write the secret key, and how to name it in messages. */
  readonly secretPath: string;
  readonly secretLabel: string;
  /**
   * The project root when `secretPath` is skillctl's default (no `--out`): a part of its folder
   * below the root that is a link was put there by the repository, not chosen by the user.
   */
  readonly defaultRoot?: string;
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
  // A cloned repository may hold `.skillctl/keys` (or `.skillctl`) as a link (git checks links out
  // as links) into a folder of the project a skill may read, or that `git add` commits: the key
  // would be written there. Refused before anything is written, as pull refuses its default folder.
  const linked = req.defaultRoot !== undefined ? await linkBelow(req.defaultRoot, dirname(req.secretPath)) : undefined;
  if (linked !== undefined) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `${linked} is a link: keygen writes its default secret key file ${req.secretLabel} only inside the project`, {
      hint: 'remove the link, or pass --out to name the secret key file',
    });
  }
  const read = await readBounded(req.keysPath, { maxBytes: KEYS_MAX_BYTES });
  if (!read.ok && read.reason !== 'missing') throw new SkillctlError(refusalCode(read), describeRefusal(read, req.keysLabel));
  const existing = read.ok ? read.bytes : undefined;
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
  // A directory that cannot be made or written is the user's file system saying no: OUTPUT_UNWRITABLE.
  await asOutputWrite(req.secretLabel, () => makeDirs(dirname(req.secretPath), 0o700));
  if (req.force) {
    await asOutputWrite(req.secretLabel, () => writeFileAtomic(req.secretPath, pair.secretKeyText, 0o600));
  } else {
    if (!(await asOutputWrite(req.secretLabel, () => createFileAtomic(req.secretPath, pair.secretKeyText, 0o600)))) {
      return { ok: false, signer: req.signer, diagnostics: [diag('KEY_EXISTS', `${req.secretLabel} exists`, { file: req.secretLabel, hint: 'pass --force to overwrite it, or choose another --out' })] };
    }
  }
  const text = renderPublicKeys(keys.keys, req.signer, pair.publicKey);
  await asOutputWrite(req.keysLabel, async () => {
    await makeDirs(dirname(req.keysPath));
    await writeFileAtomic(req.keysPath, text);
  });
  const exposed = await checkSecretPlace(req.secretPath, req.secretLabel, `the secret key of ${req.signer}`);
  return { ok: true, signer: req.signer, publicKey: pair.publicKey, keysDigest: sha256(text), diagnostics: exposed };
}
