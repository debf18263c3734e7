import { bundlePaths } from './bundle-paths.js';
import { contractRefs } from './contract-refs.js';
import { contractVersion } from './contract-version.js';
import { digestFormat } from './digest-format.js';
import { embeddedSchemas } from './embedded-schemas.js';
import { executionContext } from './execution-context.js';
import { fingerprints } from './fingerprints.js';
import { permissions } from './permissions.js';
import { runtimeLimits } from './runtime-limits.js';
import { runtimePinned } from './runtime-pinned.js';
import { sideEffects } from './side-effects.js';
import { uniqueIds } from './unique-ids.js';
import type { Rule } from './rule.js';

/**
 * Every semantic rule, run in this order; each is independent of the others, and each runs on
 * every manifest that parsed, reading what the schema did not find wrong (view.ts).
 */
export const RULES: readonly Rule[] = [
  contractVersion,
  digestFormat,
  uniqueIds,
  runtimePinned,
  runtimeLimits,
  bundlePaths,
  embeddedSchemas,
  contractRefs,
  fingerprints,
  sideEffects,
  permissions,
  executionContext,
];

export type { EntrypointView, Rule, RuleContext, ViewedEntrypoint } from './rule.js';
export { entrypointViews } from './view.js';
