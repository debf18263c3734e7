export { addFolders, foldersOf } from './folders.js';
export { canonicalize, canonicalJson, JCS_MAX_DEPTH } from './jcs.js';
export { canonicalDigest, isSha256Digest, jcsDigest, sha256, SHA256_DIGEST, type Sha256Digest } from './sha256.js';
export { comparePaths, modeOf, sortTreeFiles, treeDigest, type FileMode, type TreeFile } from './tree.js';
