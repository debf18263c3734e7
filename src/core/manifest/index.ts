export { CORE_SIDE_EFFECT_CATEGORIES, classifyCategory, SIDE_EFFECT_SET_VERSION, type CoreSideEffectCategory } from './categories.js';
export type { DeterminismReason, EntrypointDeterminism, EntrypointSummary } from './determinism/index.js';
export { fixDigests, type DigestFix } from './fix.js';
export { readCleanJson } from './guards.js';
export { DEFAULT_LIMITS, parseLimit, resolveLimits, type ResolvedLimits } from './limits.js';
export { LOADER_PRECEDENCE, toLoaderError, type LoaderError, type LoaderErrorCode, type ValidationStage } from './loader-error.js';
export { deriveMetadata, UNKNOWN_METADATA, type ValidationMetadata } from './metadata.js';
export * from './model.js';
export { parseJsonStrict } from './json-strict.js';
export { jsonSyntaxProblem, type JsonSyntaxProblem } from './json-syntax.js';
export { MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, parseDocumentBytes, type DocumentFormat, type ParsedDocument, type Position } from './parse.js';
export { childPointer, parsePointer, toPointer } from './pointer.js';
export { findManifest } from './find.js';
export { fixManifestFile, type FixedFile } from './fix-file.js';
export {
  formatOf,
  formatOfBytes,
  computeManifestDigest,
  manifestDigestOf,
  unreadable,
  validateBundle,
  validateManifest,
  validateManifestFile,
  type DigestCheck,
  type ManifestValidation,
  type ValidateOptions,
} from './validate.js';
export { bytePosition, firstInvalidUtf8 } from './utf8.js';
export { toYamlText } from './yaml-document.js';
export { ID_MAX_LENGTH, ID_PATTERN, SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN, SKILL_VERSION_PATTERN } from './patterns.js';
