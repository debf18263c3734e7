export { archiveFormatOf, type ArchiveFormat } from './format.js';
export { ARCHIVE_CODES } from './codes.js';
export { DeterministicGzip } from './gzip.js';
export { MAX_PATH_BYTES, UNPORTABLE_NAME, unsafeArchivePath } from './paths.js';
export { PathTree, type Placing } from './path-tree.js';
export {
  decodeUtf8,
  DEFAULT_ARCHIVE_BOUNDS,
  inflateLimit,
  readTgz,
  tooLarge,
  type ArchiveBounds,
  type ReadTgz,
  type TarEntry,
} from './read-tgz.js';
export { streamedArchiveBounds, STREAMED_ARCHIVE_CEILING, STREAMED_ARCHIVE_RATIO } from './stream-bounds.js';
export { TarWalk, type TarEvent } from './tar-walk.js';
export { readSkillZip, readZip, type ReadSkillZip } from './read-zip.js';
export {
  excludedFromSkillZip,
  packSkillZip,
  SKILL_ZIP_EXCLUDED_DIRS,
  SKILL_ZIP_EXCLUDED_FILES,
  SKILL_ZIP_EXCLUDED_ROOT_DIRS,
  SKILL_ZIP_EXCLUDED_SUFFIXES,
  type SkillZip,
  type SkillZipSource,
} from './skill-zip.js';
export { archiveTrailer, contentPadding, fileHeader, parseHeader, parsePax, splitUstarPath, BLOCK, RECORD } from './tar.js';
export { writeZip, type WrittenZip, type ZipEntry, type ZipEntryInfo } from './zip.js';
export { FILE_PIECE, filePieces } from './file-pieces.js';
