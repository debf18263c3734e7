import { markdownIn } from '../text.js';
import { defineKeyword } from './types.js';

/** `plainText: true`: a string carries no markdown markup (C1: no markdown). */
export const plainText = defineKeyword<boolean>({
  keyword: 'plainText',
  code: 'PAYLOAD_MARKDOWN',
  type: 'string',
  check({ value, arg }) {
    const found = arg ? markdownIn(value as string) : undefined;
    return found === undefined ? [] : [{ message: `contains markdown (${found}); contracts carry plain text` }];
  },
});
