export { writeFileAtomic } from './atomic-write.js';
export { findProjectRoot, PROJECT_MARKERS } from './project.js';
export { createFileAtomic } from './create-atomic.js';
