/**
 * The capability registry (seed 004): capability bundles (capability.json, skill.md, tools.json,
 * ui_schemas.json), their publish-time validation, a registry directory with its index, the
 * layered view of a project's registry over the shipped one, intent matching, and loading a
 * capability as the protocol's payload.
 */
export { BASIC_CATALOG_ID, checkUiDefinition, inferDialect } from './a2ui/index.js';
export { bundlePath, parseCapability, readCapabilityFiles, type BundleBytes, type Indexed, type ParsedCapability } from './bundle.js';
export { CHECKS, REQUIRED_SECTIONS } from './checks/index.js';
export { bundleDir, CAPABILITIES_DIR, EMPTY_INDEX, INDEX_FILE, readIndex, renderIndex, type IndexRead } from './index-file.js';
export { bundleDigest, capabilityNotFound, loadCapability, type LoadError, type LoadResult, type MalformedFinding } from './load.js';
export { layeredView, loadFromView, readRegistryView, viewEntries, type LayeredEntry, type RegistryLayer, type RegistryView, type ViewRead } from './layers.js';
export { locateRegistry, locateRegistryLayers, PROJECT_REGISTRY, type LocateOptions, type RegistryLocation, type RegistrySource } from './locate.js';
export { MATCH_TRIGGERS_MAX, matchBound, matchIntent, words, type CapabilityMatch, type TriggerMatch } from './match.js';
export * from './model.js';
export { LOCK_FILE, publishCapabilities, type PublishedCapability, type PublishOptions, type PublishResult } from './publish.js';
export { parseSkillDoc, type SkillDoc } from './skill-doc.js';
export { stem } from './stem.js';
export {
  checkCapability,
  dirSkillResolver,
  readCapability,
  validateCapability,
  type CapabilityValidation,
  type ReadCapability,
  type SkillResolver,
  type ValidateCapabilityOptions,
} from './validate.js';
