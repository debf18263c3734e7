export { DeterministicGzip, inThreadDeflate, type DeflateSink } from './gzip.js';
export { buildArchive, packBundle, type PackOptions, type PackResult } from './pack.js';
