import type { Check } from './check.js';
import { skillDocFrontMatter } from './skill-doc-front-matter.js';
import { skillDocSections } from './skill-doc-sections.js';
import { skillDocTools } from './skill-doc-tools.js';
import { toolBindings } from './tool-bindings.js';
import { toolNames } from './tool-names.js';
import { toolPolicy } from './tool-policy.js';
import { toolSchemas } from './tool-schemas.js';
import { uiSchemas } from './ui-schemas.js';

export { bindingKey, type BindingResolution, type Check, type CheckContext } from './check.js';
export { REQUIRED_SECTIONS } from './skill-doc-sections.js';

/** Every publish-time check, each independent of the others. */
export const CHECKS: readonly Check[] = [
  skillDocFrontMatter,
  skillDocSections,
  skillDocTools,
  toolNames,
  toolSchemas,
  toolPolicy,
  toolBindings,
  uiSchemas,
];
