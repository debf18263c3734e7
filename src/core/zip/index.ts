export { writeZip, type WrittenZip, type ZipEntry, type ZipEntryInfo } from './write.js';
