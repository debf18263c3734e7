export { ARCHIVE_CODES } from './archive-codes.js';
export { archiveSourceFromBytes, DEFAULT_ARCHIVE_BOUNDS, inflateLimit, openArchive, unsafeArchivePath, type ArchiveSource } from './archive-source.js';
export { computeContent, hashFiles, type BundleContent, type HashedFiles } from './content.js';
export { asyncDirOps, syncDirOps, type DirOps } from './dir-ops.js';
export { dirSource } from './dir-source.js';
export { digestBytes, hashStream } from './hash-stream.js';
export { excludedWithAncestors, isExcluded, parseSkillignore, UNPORTABLE_NAME } from './path-filter.js';
export { memorySource, type MemoryFile } from './memory-source.js';
export {
  DEFAULT_BOUNDS,
  DIGEST_EXCLUDED_ROOT_FILES,
  EXCLUDED_DIRS,
  MANIFEST_NAMES,
  type BundleBounds,
  type BundleFile,
  type BundleListing,
  type BundleSource,
  type ManifestName,
} from './source.js';
export { archiveTrailer, contentPadding, fileHeader, parseHeader, parsePax, splitUstarPath, BLOCK, RECORD } from './tar.js';
