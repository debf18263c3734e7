import { diag, type Diagnostic } from '../../diagnostics.js';
import { classifyCategory, SIDE_EFFECT_SET_VERSION } from '../categories.js';
import type { Rule } from './rule.js';

export const sideEffects: Rule = {
  name: 'side-effects',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer, label } of entrypoints) {
      const categories = ep.side_effect_categories ?? [];
      if (categories.length > 0 && ep.side_effect_fingerprint_fields?.length === 0) {
        out.push(
          diag('SIDE_EFFECT_UNDECLARED', `entrypoint ${label} declares side effects but no side_effect_fingerprint_fields`, {
            pointer: `${pointer}/side_effect_fingerprint_fields`,
            hint: 'list the fields that identify each effect, e.g. input.path for a file write',
          }),
        );
      }
      categories.forEach((category, i) => {
        const v = classifyCategory(category);
        const at = `${pointer}/side_effect_categories/${i}`;
        if (v.kind === 'unknown') {
          out.push(
            diag('SIDE_EFFECT_CATEGORY_UNKNOWN', `side-effect category ${JSON.stringify(category)}: ${v.reason}`, {
              pointer: at,
              hint: `use a ${SIDE_EFFECT_SET_VERSION} category (docs/formats/side-effects.md) or vendor.category_name`,
            }),
          );
        } else if (v.kind === 'alias') {
          out.push(
            diag('SIDE_EFFECT_CATEGORY_ALIAS', `extension ${JSON.stringify(category)} aliases the core category ${v.of}`, {
              pointer: at,
              hint: `use ${v.of} itself`,
            }),
          );
        }
      });
    }
    return out;
  },
};
