export { SIGN_CODES } from './codes.js';
export { hasSmallOrder, isEd25519Point } from './curve.js';
export { keygen, type KeygenRequest, type KeygenResult } from './keygen.js';
export {
  decodeKey32,
  generateSigningKey,
  KEYS_MAX_BYTES,
  KEYS_MAX_SIGNERS,
  loadPublicKeys,
  parseSecretKey,
  readSecretKey,
  publicKeyFromRaw,
  renderPublicKeys,
  SIGNER_ID,
  type PublicKey,
  type PublicKeys,
  type SecretKey,
} from './keys.js';
export {
  checkSignatures,
  loadSignatures,
  renderSignatures,
  signaturesUncovered,
  signDigest,
  upsertSignature,
  verifyDigestSignature,
  type SignatureCheck,
  type SignatureEntry,
  type SignaturePolicy,
  type SignaturesDoc,
} from './signatures.js';
