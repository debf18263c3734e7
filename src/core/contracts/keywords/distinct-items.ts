import { childPointer } from '../../manifest/index.js';
import { normaliseText, quote } from '../text.js';
import { jsonKey } from './json-key.js';
import { defineKeyword, type Violation } from './types.js';

function key(item: unknown): string {
  return typeof item === 'string' ? 's' + normaliseText(item) : jsonKey(item);
}

/**
 * `distinctItems: true`: no two items are the same after normalisation (strings: NFKC, case,
 * whitespace and trailing . ! ? … ignored; other values: canonical JSON). Stricter than
 * `uniqueItems`, which lets "Fear" and "fear." both through.
 */
export const distinctItems = defineKeyword<boolean>({
  keyword: 'distinctItems',
  code: 'PAYLOAD_DUPLICATE_ITEM',
  type: 'array',
  check({ value, arg, pointer }) {
    if (!arg) return [];
    const first = new Map<string, number>();
    const out: Violation[] = [];
    (value as unknown[]).forEach((item, i) => {
      const k = key(item);
      const j = first.get(k);
      if (j === undefined) first.set(k, i);
      else out.push({ pointer: childPointer(pointer, i), message: `repeats item ${j}${typeof item === 'string' ? ` (${quote(item)})` : ''}` });
    });
    return out;
  },
});
