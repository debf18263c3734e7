import type { CodeCatalogue } from '../code-spec.js';

/** Ed25519 keys, trust anchors (public-keys.json) and signatures (signatures.json). */
export const SIGN_CODES = {
  KEYS_INVALID: {
    severity: 'error',
    title: 'The public-keys file is missing, not a JSON object of signer to key, names more than 256 signers, or holds a key that is not a valid Ed25519 public key (not a curve point, or a point of small order).',
    exit: 'findings',
  },
  KEYS_DIGEST_MISMATCH: {
    severity: 'error',
    title: "The public-keys file's sha256 differs from the digest the lock pins (the trust anchors changed).",
    exit: 'findings',
  },
  SIGNATURES_INVALID: {
    severity: 'error',
    title: 'signatures.json is missing where signatures are required, malformed, names another manifest, repeats a signer or uses an algorithm other than ed25519, or signs a manifest that declares no content_digest.',
    exit: 'findings',
  },
  SIGNATURE_BAD: { severity: 'error', title: 'A signature does not verify with its signer\'s public key.', exit: 'findings' },
  SIGNATURE_MISSING: { severity: 'error', title: 'A signer the lock expects has no signature in signatures.json.', exit: 'findings' },
  SIGNER_UNKNOWN: { severity: 'error', title: 'A signature is by a signer that has no key in the public-keys file.', exit: 'findings' },
  SIGNER_UNEXPECTED: {
    severity: 'error',
    title: 'signatures.json holds a signature by a signer the lock does not list for this pin.',
    exit: 'findings',
  },
  TOO_FEW_SIGNERS: {
    severity: 'error',
    title: 'Fewer valid signatures from distinct public keys than the lock\'s min_signers requires.',
    exit: 'findings',
  },
  SECRET_KEY_INVALID: {
    severity: 'error',
    title: 'The secret key file is unreadable, not base64 of a 32-byte Ed25519 seed, or readable by others.',
    exit: 'usage',
  },
  SIGNER_ID_INVALID: {
    severity: 'error',
    title: 'A signer id is not 1-128 characters of letters, digits, dot, underscore or hyphen, or is __proto__, constructor or prototype.',
    exit: 'usage',
  },
  KEY_EXISTS: {
    severity: 'error',
    title: 'keygen would overwrite a secret key file or change a signer\'s public key (use --force).',
    exit: 'usage',
  },
} as const satisfies CodeCatalogue;
