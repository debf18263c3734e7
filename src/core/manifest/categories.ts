/**
 * Side-effect categories: skillctl's closed core set, versioned with the contract
 * (seed 003: "core categories are a closed set versioned with skill_contract_version").
 * The Orket reference never published its set; this one is skillctl's, documented in
 * docs/formats/side-effects.md. Adding a category is a new set version.
 */
export const SIDE_EFFECT_SET_VERSION = 'skillctl.side_effects.v1';

export const CORE_SIDE_EFFECT_CATEGORIES = [
  'filesystem.read',
  'filesystem.write',
  'filesystem.delete',
  'network.http',
  'network.other',
  'process.spawn',
  'environment.read',
  'clock.read',
  'random.read',
  'external.state_change',
] as const;

export type CoreSideEffectCategory = (typeof CORE_SIDE_EFFECT_CATEGORIES)[number];

const CORE: ReadonlySet<string> = new Set(CORE_SIDE_EFFECT_CATEGORIES);
/** Namespaces the core set owns: an extension may not live in one of them. */
const CORE_NAMESPACES: ReadonlySet<string> = new Set([
  ...CORE_SIDE_EFFECT_CATEGORIES.map((c) => c.split('.')[0] as string),
  'core',
  'skillctl',
]);

const EXTENSION = /^([a-z][a-z0-9_-]*)\.([a-z][a-z0-9_]*)$/;

/** Letters and digits only: `network_http`, `network-http` and `networkhttp` are one name. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}
const CORE_SQUASHED = new Map(CORE_SIDE_EFFECT_CATEGORIES.map((c) => [squash(c), c] as const));

export type CategoryVerdict =
  | { readonly kind: 'core' }
  | { readonly kind: 'extension'; readonly vendor: string }
  | { readonly kind: 'alias'; readonly of: CoreSideEffectCategory }
  | { readonly kind: 'unknown'; readonly reason: string };

export function classifyCategory(category: string): CategoryVerdict {
  if (CORE.has(category)) return { kind: 'core' };
  const m = EXTENSION.exec(category);
  if (m === null) {
    return { kind: 'unknown', reason: 'not a core category and not of the form vendor.category_name' };
  }
  const vendor = m[1] as string;
  const name = m[2] as string;
  if (CORE_NAMESPACES.has(vendor)) {
    return { kind: 'unknown', reason: `the ${vendor}. namespace belongs to the core set` };
  }
  const aliased = CORE_SQUASHED.get(squash(name));
  if (aliased !== undefined) return { kind: 'alias', of: aliased };
  return { kind: 'extension', vendor };
}
