export { writeFileAtomic } from './atomic-write.js';
export { createFileAtomic } from './create-atomic.js';
export { findProjectRoot, PROJECT_MARKERS } from './project.js';
