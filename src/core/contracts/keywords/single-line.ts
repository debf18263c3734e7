import { defineKeyword } from './types.js';

/** `singleLine: true`: a string has no line break (C1: a list item is not a prose blob). */
export const singleLine = defineKeyword<boolean>({
  keyword: 'singleLine',
  code: 'PAYLOAD_MULTILINE',
  type: 'string',
  check({ value, arg }) {
    if (!arg) return [];
    const lines = (value as string).split(/\r\n|[\n\r\u2028\u2029\u0085]/).length;
    return lines > 1 ? [{ message: `has ${lines} lines; one line expected` }] : [];
  },
});
