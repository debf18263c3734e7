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

/** Letters and digits only, lower case: `network_http`, `Network-HTTP` and `networkhttp` are one name. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The spellings a word of a core category is commonly written in. An extension spelt with any of
 * them, in either order, with any separators and case, still names the core category, and the
 * contract forbids an extension to alias one (seed 003, side-effect category rule 3).
 */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  filesystem: ['filesystem', 'fs', 'file', 'files'],
  network: ['network', 'net'],
  process: ['process', 'proc', 'subprocess', 'exec', 'execute'],
  environment: ['environment', 'env'],
  clock: ['clock', 'time'],
  random: ['random', 'rand', 'rng'],
  external: ['external', 'ext'],
  read: ['read'],
  write: ['write'],
  delete: ['delete', 'remove', 'rm'],
  http: ['http', 'https'],
  other: ['other'],
  spawn: ['spawn', 'exec', 'execute', 'run'],
  state_change: ['state_change', 'change'],
};

function spellings(word: string): readonly string[] {
  return SPELLINGS[word] ?? [word];
}

/** Every squashed spelling of every core category (`nethttp`, `httpsnetwork`, `writefile`...). */
const CORE_SPELLINGS: ReadonlyMap<string, CoreSideEffectCategory> = new Map(
  CORE_SIDE_EFFECT_CATEGORIES.flatMap((c) => {
    const [area = '', action = ''] = c.split('.');
    return spellings(area).flatMap((a) => spellings(action).flatMap((b) => [[squash(a + b), c] as const, [squash(b + a), c] as const]));
  }),
);

export type CategoryVerdict =
  | { readonly kind: 'core' }
  | { readonly kind: 'extension'; readonly vendor: string }
  | { readonly kind: 'alias'; readonly of: CoreSideEffectCategory }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * The core category a `vendor.name` category spells, if any: its name alone (`acme.net_http`) or
 * the whole of it (`fs.write`, `Network.HTTP`), compared after dropping case and separators.
 */
function aliasOf(category: string): CoreSideEffectCategory | undefined {
  const dot = category.indexOf('.');
  if (dot <= 0 || dot === category.length - 1) return undefined;
  return CORE_SPELLINGS.get(squash(category.slice(dot + 1))) ?? CORE_SPELLINGS.get(squash(category));
}

export function classifyCategory(category: string): CategoryVerdict {
  if (CORE.has(category)) return { kind: 'core' };
  // Before the shape check: `acme.network-http` is an alias written with a separator extensions
  // may not use, and naming the core category is the more useful finding.
  const aliased = aliasOf(category);
  if (aliased !== undefined) return { kind: 'alias', of: aliased };
  const m = EXTENSION.exec(category);
  if (m === null) {
    return { kind: 'unknown', reason: 'not a core category and not of the form vendor.category_name' };
  }
  const vendor = m[1] as string;
  if (CORE_NAMESPACES.has(vendor)) {
    return { kind: 'unknown', reason: `the ${vendor}. namespace belongs to the core set` };
  }
  return { kind: 'extension', vendor };
}
