export { writeFileAtomic } from './atomic-write.js';
export { findProjectRoot, PROJECT_MARKERS } from './project.js';
export { withFileLock, type FileLockOptions } from './file-lock.js';
export { createFileAtomic } from './create-atomic.js';
export { makeDirs } from './make-dirs.js';
export {
  describeRefusal,
  kindOf,
  readBounded,
  readInputFile,
  refusalCode,
  refusalDiagnostic,
  type BoundedRead,
  type BoundedRefusal,
  type FileKind,
  type ReadBoundedOptions,
} from './read-bounded.js';
export { asOutputWrite } from './output-error.js';
