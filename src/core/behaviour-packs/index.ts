export { renderPack, packCatalogue, type RenderPackOptions } from './api.js';
export { BUILTIN_PACKS, BUILTIN_PROFILES } from './builtin.js';
export { checkPack, type CheckPackOptions } from './check.js';
export { loadPack, loadPackDir, type LoadedPack, type LoadPackDirOptions, type LoadPackOptions } from './load.js';
export * from './model.js';
export {
  clampBudget,
  codePoints,
  fitLines,
  identityLine,
  packLayout,
  packLines,
  renderPackText,
  type Budget,
  type PackLine,
  type RenderedPack,
} from './render.js';
export { checkPackRequest, renderRequest, type PackRequest } from './request.js';
export { parsePackRequest, PACK_REQUEST_MAX_BYTES } from './request-json.js';
