import { allowedTools } from './allowed-tools.js';
import { bodySize, links } from './body.js';
import { description } from './description.js';
import { fields } from './fields.js';
import { folderSize } from './files.js';
import { metadata } from './metadata.js';
import { name } from './name.js';
import type { Check } from './check.js';

/** Every check of SKILL.md; each is independent of the others. */
export const CHECKS: readonly Check[] = [fields, name, description, metadata, allowedTools, bodySize, links, folderSize];

export type { Check, CheckContext } from './check.js';
export { nameFindings, normalizeName, skillNameKey } from './name.js';
export { estimateTokens, relativeLinks } from './body.js';
export { splitTools } from './allowed-tools.js';
