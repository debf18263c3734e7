export { writeFileAtomic } from './atomic-write.js';
export { createFileAtomic } from './create-atomic.js';
