export { packFolder, type PackFolderOptions } from './pack-folder.js';
export { buildArchive, PACK_FORMATS, packBundle, type PackedSkillFile, type PackFormat, type PackOptions, type PackResult } from './pack.js';
