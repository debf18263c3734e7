import { diag, type Diagnostic } from '../../diagnostics.js';
import type { CoreSideEffectCategory } from '../categories.js';
import { permissionValues, type PermissionScope } from '../model.js';
import type { DeterminismCheck } from './check.js';

/** The permissions that act on the world, and the core categories that declare each effect. */
const EFFECTS = {
  'fs.write': ['filesystem.write', 'filesystem.delete'],
  'net.http': ['network.http'],
  exec: ['process.spawn'],
} as const satisfies Partial<Record<PermissionScope, readonly CoreSideEffectCategory[]>>;

type EffectScope = keyof typeof EFFECTS;

/**
 * Side-effect coverage of the permissions: an entrypoint that may write files, make requests or
 * start programs declares that effect as a category, and names the fields that identify each
 * effect, or a replay cannot know what it would do again.
 */
export const sideEffectCoverage: DeterminismCheck = {
  name: 'side-effects',
  check({ ep, pointer, label }) {
    const categories = ep.side_effect_categories;
    if (categories === undefined) return [];
    const out: Diagnostic[] = [];
    const effects: EffectScope[] = [];
    for (const scope of Object.keys(EFFECTS) as EffectScope[]) {
      const where = (['requested_permissions', 'required_permissions'] as const).find((w) => permissionValues(ep[w]?.[scope]).length > 0);
      if (where === undefined) continue;
      effects.push(scope);
      const covering: readonly CoreSideEffectCategory[] = EFFECTS[scope];
      if (covering.some((c) => categories.includes(c))) continue;
      out.push(
        diag('DETERMINISM_SIDE_EFFECT_UNCOVERED', `entrypoint ${label} asks for ${scope} but side_effect_categories has no ${covering.join(' or ')}`, {
          pointer: `${pointer}/${where}/${scope}`,
          hint: `add ${covering[0] ?? ''} to side_effect_categories`,
        }),
      );
    }
    // With a category declared, an empty list is SIDE_EFFECT_UNDECLARED already.
    if (effects.length > 0 && categories.length === 0 && ep.side_effect_fingerprint_fields?.length === 0) {
      out.push(
        diag('DETERMINISM_SIDE_EFFECT_UNCOVERED', `entrypoint ${label} asks for ${effects.join(', ')} but lists no side_effect_fingerprint_fields`, {
          pointer: `${pointer}/side_effect_fingerprint_fields`,
          hint: 'list the fields that identify each effect, e.g. input.path for a file write or input.url for a request',
        }),
      );
    }
    return out;
  },
};
