/**
 * The packs that ship with skillctl. Their source is manifests/packs/<profile>.yaml; the build
 * embeds them (scripts/packs.mjs) so rendering a built-in pack needs no YAML parser at run time,
 * and checks after compiling that the embedded data is exactly what `loadPack` reads from each file.
 */
import { BUILTIN_PACK_DATA } from '../../generated/packs.js';
import type { Pack } from './model.js';

function freeze(pack: Pack): Pack {
  for (const s of pack.sections) Object.freeze(Object.freeze(s).lines);
  Object.freeze(pack.sections);
  return Object.freeze(pack);
}

/** The built-in packs, sorted by profile; frozen, so no caller can change what others render. */
export const BUILTIN_PACKS: readonly Pack[] = Object.freeze(BUILTIN_PACK_DATA.map(freeze));

/** Names of the built-in profiles, sorted. Operator packs cannot take these names. */
export const BUILTIN_PROFILES: readonly string[] = Object.freeze(BUILTIN_PACKS.map((p) => p.profile));
