import { isBlank } from '../text.js';
import { defineKeyword } from './types.js';

/** `nonBlank: true`: a string holds at least one visible character. */
export const nonBlank = defineKeyword<boolean>({
  keyword: 'nonBlank',
  code: 'PAYLOAD_BLANK_STRING',
  type: 'string',
  check({ value, arg }) {
    return arg && isBlank(value as string) ? [{ message: 'is empty or only whitespace' }] : [];
  },
});
