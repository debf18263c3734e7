export { computeContent, type BundleContent } from './content.js';
export { dirSource } from './dir-source.js';
export { hashStream } from './hash-stream.js';
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
