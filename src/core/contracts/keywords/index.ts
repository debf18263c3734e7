import { addressesSubject } from './addresses-subject.js';
import { distinctItems } from './distinct-items.js';
import { emotive, stakes } from './lexical.js';
import { maxWords } from './max-words.js';
import { minSpecificWords } from './min-specific-words.js';
import { noColdOpen } from './no-cold-open.js';
import { nonBlank } from './non-blank.js';
import { plainText } from './plain-text.js';
import { requiredIf } from './required-if.js';
import { sentenceCount } from './sentence-count.js';
import { singleLine } from './single-line.js';
import type { ContractKeyword } from './types.js';

/** Every skillctl contract keyword, in the order docs/formats/contract.md lists them. */
export const CONTRACT_KEYWORDS = [
  maxWords,
  sentenceCount,
  requiredIf,
  nonBlank,
  distinctItems,
  singleLine,
  plainText,
  minSpecificWords,
  emotive,
  stakes,
  addressesSubject,
  noColdOpen,
] as const satisfies readonly ContractKeyword<never>[];

export type { ContractKeyword, KeywordContext, Violation } from './types.js';
