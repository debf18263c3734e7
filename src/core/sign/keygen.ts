/**
 * `keygen`: a new Ed25519 key pair for a signer. The secret key file is created with mode 0600
 * and never overwritten unless asked; the public key is added to the public-keys file, and a
 * signer's existing public key is never replaced unless asked (that would be a change of trust).
 * A key written outside a `.skillctl/keys/` folder (`--out`) is written, with SECRET_FILE_EXPOSED:
 * there a skill granted to read its folder can read it.
 */
import { basename, dirname, join } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { asOutputWrite, createFileAtomic, describeRefusal, linkBelow, readBounded, refusalCode, withFileLock, writeFileAtomic, type FileLockOptions } from '../fs/index.js';
import { generateSigningKey, KEYS_MAX_BYTES, KEYS_MAX_SIGNERS, loadPublicKeys, renderPublicKeys, SIGNER_ID, type PublicKey } from './keys.js';
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
  /** The write lock the public-keys file is updated under (`.<file>.lck` beside it); none: no other writer is expected. */
  readonly fileLock?: FileLockOptions;
}

export interface KeygenResult {
  readonly ok: boolean;
  readonly signer: string;
  readonly publicKey?: string;
  /** sha256 of the public-keys file as written: the value a lock pins as keys_digest. */
  readonly keysDigest?: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
}

/** The public keys `req.keysPath` holds (none when it is missing), or why keygen stops: a file that does not load, or `req.signer` already in it without `force`. */
async function readKeys(req: KeygenRequest): Promise<{ readonly keys: ReadonlyMap<string, PublicKey> } | { readonly refused: KeygenResult }> {
  const read = await readBounded(req.keysPath, { maxBytes: KEYS_MAX_BYTES });
  if (!read.ok && read.reason !== 'missing') throw new SkillctlError(refusalCode(read), describeRefusal(read, req.keysLabel));
  const keys = read.ok ? loadPublicKeys(read.bytes, req.keysLabel) : { keys: new Map<string, PublicKey>(), diagnostics: [] };
  if (hasErrors(keys.diagnostics)) return { refused: { ok: false, signer: req.signer, diagnostics: keys.diagnostics } };
  if (!keys.keys.has(req.signer) && keys.keys.size >= KEYS_MAX_SIGNERS) {
    const full = diag('KEYS_INVALID', `${req.keysLabel} already names ${keys.keys.size} signers, the most a keys file may name`, { file: req.keysLabel });
    return { refused: { ok: false, signer: req.signer, diagnostics: [full] } };
  }
  if (keys.keys.has(req.signer) && !req.force) {
    return {
      refused: {
        ok: false,
        signer: req.signer,
        diagnostics: [diag('KEY_EXISTS', `${req.keysLabel} already has a key for ${req.signer}`, { file: req.keysLabel, hint: 'pass --force to replace it (a change of trust: pin again with --trust-keys)' })],
      },
    };
  }
  return { keys: keys.keys };
}

/** What a `.skillctl/keys/` folder's `.gitignore` says: nothing in it, itself included, is for git. */
const KEYS_GITIGNORE = '# skillctl keygen: secret signing keys, never committed\n*\n';

/**
 * Makes git ignore the default `.skillctl/keys/` folder before a secret key is written there. Nothing else
 * did: in a project (not skillctl's own checkout) `git add -A` staged `.skillctl/keys/alice.key`,
 * and a push published the signing key. A folder's own `.gitignore` outranks every other ignore
 * file for its entries, so a root `.gitignore` of the repository cannot take it back (`!*.key`);
 * one the repository committed there is rewritten. Written before the key: no moment has the key
 * and no rule.
 */
async function ignoredByGit(dir: string, label: string): Promise<void> {
  const path = join(dir, '.gitignore');
  const now = await readBounded(path, { maxBytes: 4096, followLinks: false });
  if (now.ok && now.bytes.toString('utf8') === KEYS_GITIGNORE) return;
  await asOutputWrite(label, () => writeFileAtomic(path, KEYS_GITIGNORE, 0o600));
}

export async function keygen(req: KeygenRequest): Promise<KeygenResult> {
  if (!SIGNER_ID.test(req.signer)) {
    throw new SkillctlError('SIGNER_ID_INVALID', `signer id ${JSON.stringify(req.signer)} is not 1-128 letters, digits, dots, underscores or hyphens (nor __proto__, constructor or prototype)`);
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
  const first = await readKeys(req);
  if ('refused' in first) return first.refused;
  const pair = generateSigningKey();
  // A directory that cannot be made or written is the user's file system saying no: OUTPUT_UNWRITABLE.
  await asOutputWrite(req.secretLabel, () => makeDirs(dirname(req.secretPath), 0o700));
  // The default folder only: none of it below the root is a link (checked above). A folder named
  // with --out may lead anywhere (a link to docs/), where a `*` would hide the user's files.
  if (req.defaultRoot !== undefined) await ignoredByGit(dirname(req.secretPath), req.secretLabel);
  if (req.force) {
    await asOutputWrite(req.secretLabel, () => writeFileAtomic(req.secretPath, pair.secretKeyText, 0o600));
  } else {
    if (!(await asOutputWrite(req.secretLabel, () => createFileAtomic(req.secretPath, pair.secretKeyText, 0o600)))) {
      return { ok: false, signer: req.signer, diagnostics: [diag('KEY_EXISTS', `${req.secretLabel} exists`, { file: req.secretLabel, hint: 'pass --force to overwrite it, or choose another --out' })] };
    }
  }
  await asOutputWrite(req.keysLabel, () => makeDirs(dirname(req.keysPath)));
  // Read again and written holding the write lock: two keygens at once (a script making its CI's
  // signers in parallel) each rewrote the file from what it read, and all but one public key were lost.
  const add = async (): Promise<KeygenResult | string> => {
    const now = await readKeys(req);
    if ('refused' in now) return now.refused;
    const text = renderPublicKeys(now.keys, req.signer, pair.publicKey);
    await asOutputWrite(req.keysLabel, () => writeFileAtomic(req.keysPath, text));
    return text;
  };
  const lock = join(dirname(req.keysPath), `.${basename(req.keysPath)}.lck`);
  const text = await (req.fileLock === undefined ? add() : withFileLock(lock, req.fileLock, add));
  if (typeof text !== 'string') return text;
  const exposed = await checkSecretPlace(req.secretPath, req.secretLabel, `the secret key of ${req.signer}`);
  return { ok: true, signer: req.signer, publicKey: pair.publicKey, keysDigest: sha256(text), diagnostics: exposed };
}
