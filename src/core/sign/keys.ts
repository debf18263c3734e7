/**
 * Ed25519 keys in the reference's formats: a secret key file holds base64 of the 32-byte seed
 * (surrounding whitespace ignored); a public-keys file is a JSON object mapping signer id to base64
 * of the raw 32-byte public key. The public-keys file is a trust anchor, pinned by the sha256 of
 * its raw bytes, so any edit to it (even whitespace) is a change of trust.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { diag, type Diagnostic } from '../diagnostics.js';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { MANIFEST_MAX_BYTES, parseDocumentBytes } from '../manifest/index.js';
import { isEd25519Point, SMALL_ORDER_ENCODINGS } from './curve.js';

/**
 * Signer ids: what the reference's release scripts accept, bounded, but for the three names every
 * document parser here refuses as keys (`__proto__`, `constructor`, `prototype`): keygen wrote
 * `constructor` into the keys file, which no command could read again, and `__proto__` not at all
 * (an object's `__proto__` does not take a string) while it said the key was added.
 */
export const SIGNER_ID = /^(?!(?:__proto__|constructor|prototype)$)[A-Za-z0-9._-]{1,128}$/;

/** A public-keys file is parsed with the manifest parser's guards, so it has their size bound. */
export const KEYS_MAX_BYTES = MANIFEST_MAX_BYTES;
/**
 * The most signers a public-keys file may name. Each key costs a point decoding (a modular square
 * root in BigInt): a 4 MiB file of 75,000 valid keys, pinned by a hostile pull request or shipped
 * in a bundle, held verify-pins or a run on one core for minutes. A project's signers are a handful.
 */
export const KEYS_MAX_SIGNERS = 256;
/**
 * The small-order points by their encodings. A key is compared with these once it decoded: a
 * decoding accepts one encoding of each point only (curve.ts), so the eight are all of them.
 */
const SMALL_ORDER_KEYS: ReadonlySet<string> = new Set(SMALL_ORDER_ENCODINGS);
/** A secret key file is one base64 line; anything longer is not one. */
const SECRET_KEY_MAX_BYTES = 4096;

/** Standard base64 with padding of exactly 32 bytes. */
const B64_32 = /^[A-Za-z0-9+/]{43}=$/;

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

export interface PublicKey {
  readonly signer: string;
  /** base64 of the raw 32 bytes, as written in the file. */
  readonly base64: string;
  readonly key: KeyObject;
}

export interface SecretKey {
  readonly privateKey: KeyObject;
  /** base64 of the raw public key that belongs to it. */
  readonly publicKey: string;
}

/** Decodes base64 of a 32-byte value strictly (canonical padding, no whitespace). */
export function decodeKey32(text: string): Buffer | undefined {
  if (!B64_32.test(text)) return undefined;
  const raw = Buffer.from(text, 'base64');
  return raw.length === 32 && raw.toString('base64') === text ? raw : undefined;
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, raw]), format: 'der', type: 'spki' });
}

function rawPublicKey(key: KeyObject): string {
  return (createPublicKey(key).export({ format: 'der', type: 'spki' }) as Buffer).subarray(SPKI_ED25519.length).toString('base64');
}

/** A fresh key pair: the secret key file's text (base64 seed and newline) and the public key. */
export function generateSigningKey(): { secretKeyText: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).subarray(PKCS8_ED25519.length);
  return { secretKeyText: seed.toString('base64') + '\n', publicKey: rawPublicKey(privateKey) };
}

/**
 * Reads a secret key file. One that other users can read is refused, as ssh refuses such keys:
 * whoever can read it can sign as its signer.
 */
export async function readSecretKey(path: string, label: string = path): Promise<{ key?: SecretKey; diagnostics: Diagnostic[] }> {
  const r = await readBounded(path, { maxBytes: SECRET_KEY_MAX_BYTES });
  if (!r.ok) return { diagnostics: [diag('SECRET_KEY_INVALID', `cannot read the secret key: ${describeRefusal(r, label)}`, { file: label })] };
  const text = r.bytes.toString('utf8');
  const mode = r.mode;
  if ((mode & 0o077) !== 0) {
    return {
      diagnostics: [diag('SECRET_KEY_INVALID', `the secret key is readable by other users (mode ${(mode & 0o777).toString(8)})`, { file: label, hint: `chmod 600 ${label}` })],
    };
  }
  return parseSecretKey(text, label);
}

/** Parses a secret key file's text. */
export function parseSecretKey(text: string, file: string): { key?: SecretKey; diagnostics: Diagnostic[] } {
  const seed = decodeKey32(text.trim());
  if (seed === undefined) {
    return { diagnostics: [diag('SECRET_KEY_INVALID', 'the secret key is not base64 of a 32-byte Ed25519 seed', { file })] };
  }
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  return { key: { privateKey, publicKey: rawPublicKey(privateKey) }, diagnostics: [] };
}

export interface PublicKeys {
  readonly keys: ReadonlyMap<string, PublicKey>;
  readonly diagnostics: readonly Diagnostic[];
}

/** Parses a public-keys file (signer id → base64 raw Ed25519 public key), checking every key. */
export function loadPublicKeys(bytes: Uint8Array, file: string): PublicKeys {
  const doc = parseDocumentBytes(bytes, 'json', 'keys file');
  const diagnostics: Diagnostic[] = doc.diagnostics.map((d) => ({ ...d, code: 'KEYS_INVALID' as const, file }));
  const keys = new Map<string, PublicKey>();
  if (doc.data === undefined) return { keys, diagnostics };
  const entries = Object.entries(doc.data as Record<string, unknown>);
  if (entries.length > KEYS_MAX_SIGNERS) {
    // Refused before any key is decoded: the bound is on the work, not only on the result.
    diagnostics.push(diag('KEYS_INVALID', `the keys file names ${entries.length} signers; at most ${KEYS_MAX_SIGNERS} are allowed`, { file, pointer: '' }));
    return { keys, diagnostics };
  }
  for (const [signer, value] of entries) {
    const pointer = `/${signer.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!SIGNER_ID.test(signer)) {
      diagnostics.push(diag('KEYS_INVALID', `signer id ${JSON.stringify(signer)} is not valid`, { file, pointer }));
      continue;
    }
    // A point decoding checks that the key is one (OpenSSL imports any 32 bytes, and a non-point
    // key would only fail later, at every verification); a small-order point is refused as
    // libsodium refuses it: under it the signature R = identity, S = 0 verifies every message.
    const raw = typeof value === 'string' ? decodeKey32(value) : undefined;
    if (raw === undefined || !isEd25519Point(raw)) {
      diagnostics.push(diag('KEYS_INVALID', `the key of ${signer} is not base64 of a 32-byte Ed25519 public key`, { file, pointer }));
      continue;
    }
    if (SMALL_ORDER_KEYS.has(raw.toString('hex'))) {
      diagnostics.push(
        diag('KEYS_INVALID', `the key of ${signer} is a point of small order, under which one signature verifies every message`, {
          file,
          pointer,
          hint: 'a key skillctl keygen makes is never one: this key was written by hand',
        }),
      );
      continue;
    }
    keys.set(signer, { signer, base64: value as string, key: publicKeyFromRaw(raw) });
  }
  return { keys, diagnostics };
}

/** The public-keys file with `signer` set to `publicKey`: keys sorted, 2-space JSON, newline. */
export function renderPublicKeys(existing: ReadonlyMap<string, PublicKey>, signer: string, publicKey: string): string {
  const all: Record<string, string> = {};
  for (const [id, k] of existing) all[id] = k.base64;
  all[signer] = publicKey;
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
  return JSON.stringify(sorted, null, 2) + '\n';
}
