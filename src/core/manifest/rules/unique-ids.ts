import { diag, type Code, type Diagnostic } from '../../diagnostics.js';
import type { Rule } from './rule.js';

function duplicates(data: Readonly<Record<string, unknown>>, field: string, code: Code): Diagnostic[] {
  const eps = Array.isArray(data.entrypoints) ? (data.entrypoints as unknown[]) : [];
  const first = new Map<string, number>();
  const out: Diagnostic[] = [];
  eps.forEach((ep, i) => {
    const id = ep !== null && typeof ep === 'object' ? (ep as Record<string, unknown>)[field] : undefined;
    if (typeof id !== 'string') return;
    const seen = first.get(id);
    if (seen === undefined) first.set(id, i);
    else {
      out.push(
        diag(code, `${field} ${JSON.stringify(id)} is used by entrypoints ${seen} and ${i}`, {
          pointer: `/entrypoints/${i}/${field}`,
          hint: `each entrypoint needs its own ${field}`,
        }),
      );
    }
  });
  return out;
}

export const uniqueIds: Rule = {
  name: 'unique-ids',
  check({ data }) {
    return [
      ...duplicates(data, 'entrypoint_id', 'ENTRYPOINT_DUPLICATE_ID'),
      ...duplicates(data, 'tool_profile_id', 'TOOL_PROFILE_DUPLICATE_ID'),
    ];
  },
};
