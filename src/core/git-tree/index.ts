/**
 * A git tree (the index or a commit's) in memory, and the file-system calls of a `DirOps` over
 * it, so the pin verifiers check what is being committed rather than the working tree. Running
 * git is the caller's (src/cli/git-run.ts, src/cli/commands/verify-pins/git-tree.ts): the core only parses git's
 * answers and reads blobs through the `BlobReader` it is given.
 */
export { changedPaths } from './changes.js';
export { GIT_TREE_CODES } from './codes.js';
export { parseLsFiles, parseLsTree, toGitTree, type BlobReader, type GitTree, type ListedEntry, type Parsed, type TreeEntry, type TreeEntryKind } from './model.js';
export { treeDirOps, type TreeOpsOptions } from './tree-ops.js';
