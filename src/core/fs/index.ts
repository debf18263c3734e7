export { writeFileAtomic } from './atomic-write.js';
export { withFileLock, type FileLockOptions } from './file-lock.js';
export { createFileAtomic } from './create-atomic.js';
