import { quote, sentences } from '../text.js';
import { defineKeyword } from './types.js';

/** `sentenceCount: n`: a string has exactly n sentences (a click thesis, exactly one). */
export const sentenceCount = defineKeyword<number>({
  keyword: 'sentenceCount',
  code: 'PAYLOAD_SENTENCE_COUNT',
  type: 'string',
  check({ value, arg }) {
    const found = sentences(value as string);
    if (found.length === arg) return [];
    const listed = found.slice(0, 3).map((s) => quote(s));
    const shown = found.length > 1 ? `: ${listed.join(', ')}${found.length > 3 ? ', ...' : ''}` : '';
    return [{ message: `has ${found.length} sentence${found.length === 1 ? '' : 's'}; exactly ${arg} required${shown}` }];
  },
});
