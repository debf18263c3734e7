/**
 * The part of `skillctl run` that a run of an unchanged default bundle never needs: validating a
 * bundle in full (the YAML parser, the manifest validators), the guarded document parser with
 * source positions (for a document the fast reader did not accept), loading a policy file, and
 * compiling a schema that was not compiled at build time (ajv, payload contracts), and verifying
 * a project's pin as verify-pins does. Everything in
 * the run path reaches it through `loadFull` (full-load.ts), on first use; the CLI build places it
 * in a chunk of its own (dist/cmd/run-full.cjs). docs/performance.md says why.
 */
export { type ContractSet } from '../contracts/index.js';
export { parseJsonDocument } from '../contracts/json-document.js';
export { compileSchema } from '../json-schema/index.js';
export { parseDocumentBytes, validateBundle } from '../manifest/index.js';
export { loadPolicy } from '../policy/index.js';
export { loadLock } from '../pins/lock.js';
// What only some runs reach, in a chunk of its own loaded on first call (full-rare.ts).
export { checkSignatures, compilePayloadSchema, loadContractSet, loadPublicKeys, loadSignatures, openArchive, provenactManifestShape } from './full-rare.js';
