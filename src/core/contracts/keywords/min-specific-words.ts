import { specificWords } from '../text.js';
import { defineKeyword } from './types.js';

/**
 * `minSpecificWords: n`: a statement has at least n words that are neither function words
 * ("the", "of") nor generic words ("people", "things", "important"). A floor against generic
 * statements, not a judge of specificity: see docs/formats/contract.md.
 */
export const minSpecificWords = defineKeyword<number>({
  keyword: 'minSpecificWords',
  code: 'PAYLOAD_GENERIC',
  type: 'string',
  check({ value, arg }) {
    const found = specificWords(value as string);
    if (found.length >= arg) return [];
    const which = found.length === 0 ? 'none' : found.map((w) => JSON.stringify(w)).join(', ');
    return [{ message: `is generic: ${found.length} specific word${found.length === 1 ? '' : 's'} (${which}); at least ${arg} required` }];
  },
});
