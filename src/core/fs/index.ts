export { writeFileAtomic } from './atomic-write.js';
export { findProjectRoot, PROJECT_MARKERS } from './project.js';
