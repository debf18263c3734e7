/**
 * The part of the heavy half of a run (full.ts) that only some runs reach: payload contracts, an
 * archive, provenact signatures. The CLI build places it in a chunk
 * of its own (dist/cmd/run-full-rare.cjs), loaded on the first call of one of these functions,
 * so that a run that needs none of them (a bundle directory validated in full, its schemas
 * compiled with ajv: a wasm skill's run, say) loads less. A policy file and a lock file, which
 * most projects have, stay in full.ts: runs that read them would otherwise load both chunks (docs/performance.md, "WebAssembly skills").
 */
export { openArchive } from '../bundle/index.js';
export { compilePayloadSchema, loadContractSet } from '../contracts/index.js';
export { manifestShape as provenactManifestShape } from '../pins/verify-provenact.js';
export { checkSignatures, loadPublicKeys, loadSignatures } from '../sign/index.js';
