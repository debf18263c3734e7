import { childPointer } from '../../manifest/index.js';
import { jsonKey } from './json-key.js';
import { defineKeyword } from './types.js';

type Conditions = Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>;

/**
 * `requiredIf: {field: {sibling: [values]}}`: when every named sibling holds one of its values,
 * `field` must be present and not null (FAIL must carry a failure_reason).
 */
export const requiredIf = defineKeyword<Conditions>({
  keyword: 'requiredIf',
  code: 'PAYLOAD_REQUIRED_IF',
  type: 'object',
  check({ value, arg, pointer }) {
    const obj = value as Record<string, unknown>;
    const out = [];
    for (const [field, when] of Object.entries(arg)) {
      const holds = Object.entries(when).every(([sibling, values]) => Object.hasOwn(obj, sibling) && values.some((v) => jsonKey(v) === jsonKey(obj[sibling])));
      if (!holds || (Object.hasOwn(obj, field) && obj[field] !== null)) continue;
      const because = Object.entries(when)
        .map(([sibling]) => `\`${sibling}\` is ${JSON.stringify(obj[sibling])}`)
        .join(' and ');
      out.push({ pointer: childPointer(pointer, field), message: `must be given, not null, when ${because}` });
    }
    return out;
  },
});
