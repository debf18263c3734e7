export { archiveSourceFromBytes, openArchive, type ArchiveSource } from './archive-source.js';
export { unpackTgz, unpackTgzFile, type UnpackedArchive, type UnpackedStream } from './unpacked-archive.js';
export { computeContent, hashFiles, listAndHash, type BundleContent, type HashedFiles } from './content.js';
export { asyncDirOps, syncDirOps, type DirHandle, type DirOps, type HashedRegular } from './dir-ops.js';
export { atBelow, childPath, DirCursor, isLinkErrno, LinkOnTheWay, openRoot, pathBelow, RootChanged, rootChangedFound, symlinkFound, type RootIdentity } from './dir-below.js';
export { bundleDirSource, dirSource, type BundleDirOptions, type DirSourceOptions } from './dir-source.js';
export { foldName, opensAsLock, pathCollisions } from './fold-name.js';
export { digestBytes, hashStream } from './hash-stream.js';
export { excludedWithAncestors, isExcluded, parseSkillignore } from './path-filter.js';
export { memorySource, type MemoryFile } from './memory-source.js';
export {
  DEFAULT_BOUNDS,
  DIGEST_EXCLUDED_ROOT_FILES,
  EXCLUDED_DIRS,
  EXCLUDED_NAMES,
  MANIFEST_NAMES,
  TOOL_FILLED_DIRS,
  type BundleBounds,
  type BundleFile,
  type BundleListing,
  type BundleSource,
  type ListedAndHashed,
  type ManifestName,
} from './source.js';
