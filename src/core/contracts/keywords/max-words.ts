import { countWords } from '../text.js';
import { defineKeyword } from './types.js';

/** `maxWords: n`: a string has at most n words (a thumbnail text, at most six). */
export const maxWords = defineKeyword<number>({
  keyword: 'maxWords',
  code: 'PAYLOAD_TOO_MANY_WORDS',
  type: 'string',
  check({ value, arg }) {
    const n = countWords(value as string);
    return n <= arg ? [] : [{ message: `has ${n} words; at most ${arg} allowed` }];
  },
});
