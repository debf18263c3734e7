/** What `skillctl keygen` prints: the JSON document, or the key written and the new keys digest. */
import type { KeygenResult } from '../../core/sign/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

/** Where the keys went, as the user should see the paths. */
export interface KeyFiles {
  readonly secret: string;
  readonly keys: string;
}

export function keygenJson(r: KeygenResult, files: KeyFiles): string {
  return renderJson({
    ok: r.ok,
    signer: r.signer,
    public_key: r.publicKey ?? null,
    secret_key_file: r.ok ? files.secret : null,
    keys_file: files.keys,
    keys_digest: r.keysDigest ?? null,
    diagnostics: r.diagnostics,
  }).trimEnd();
}

/** The result line (stdout): the key written, or the findings. */
export function renderKeygen(r: KeygenResult, files: KeyFiles, style: Style): string {
  if (!r.ok) return renderGrouped(r.diagnostics, { style });
  return `${style.green('✔')} ${r.signer}: secret key ${files.secret} (mode 0600), public key ${r.publicKey} in ${files.keys}`;
}

/** The note (stderr) after a key was added: what a lock that pins the keys file must do. */
export function renderKeysChanged(r: KeygenResult): string {
  return `the public-keys file now hashes to ${r.keysDigest}; a lock that already pins public keys accepts the change with skillctl pin --trust-keys`;
}
