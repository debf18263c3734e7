export { tempFileOf, writeFileAtomic, writeTempBeside } from './atomic-write.js';
export { hostTag, isAbandoned, type Maker, type NamedMaker } from './maker.js';
export { findProjectRoot, LOCK_MARKER, searchProjectRoot, type ProjectRootOptions, type ProjectRootSearch } from './project.js';
export { isLockAside, withFileLock, type FileLockOptions } from './file-lock.js';
export { lockPathOf } from './lock-path.js';
export { createFileAtomic, createFileOrRefuse } from './create-atomic.js';
export { makeDirs, removeMadeDirs } from './make-dirs.js';
export {
  describeRefusal,
  kindOf,
  readBounded,
  readInputFile,
  readInputPieces,
  refusalCode,
  refusalDiagnostic,
  type BoundedRead,
  type BoundedRefusal,
  type FileKind,
  type ReadBoundedOptions,
} from './read-bounded.js';
export { asOutputWrite } from './output-error.js';
export { lookupCommand, type CommandLookup } from './find-command.js';
export { within } from './within.js';
export { entryExists } from './entry-exists.js';
export { openRegularFile, type OpenedFile } from './open-regular.js';
export { linkBelow, refuseLinkedDefault } from './link-below.js';
