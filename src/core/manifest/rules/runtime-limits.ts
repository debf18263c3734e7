import { diag, type Diagnostic } from '../../diagnostics.js';
import { LIMIT_UNITS, parseLimit, type LimitField } from '../limits.js';
import type { Rule } from './rule.js';

export const runtimeLimits: Rule = {
  name: 'runtime-limits',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer } of entrypoints) {
      for (const [field, value] of Object.entries(ep.runtime_limits ?? {}) as [LimitField, number | string][]) {
        if (parseLimit(field, value) !== undefined) continue;
        const u = LIMIT_UNITS[field];
        out.push(
          diag('RUNTIME_LIMIT_INVALID', `${field} ${JSON.stringify(value)} is not a positive amount`, {
            pointer: `${pointer}/runtime_limits/${field}`,
            hint: `a number of ${u.canonical}, or a string with one of the units ${u.units.join(', ')}`,
          }),
        );
      }
    }
    return out;
  },
};
