import type { Code } from '../../diagnostics.js';
import { EMOTION_TERMS, matchesTerm, STAKES_TERMS, TIME_QUANTITY } from '../lexicon.js';
import { foldWord, words } from '../text.js';
import { defineKeyword, type ContractKeyword } from './types.js';

type Lexicon = boolean | readonly string[];

/**
 * A keyword that passes when the text uses at least one term of a word list: the built-in list
 * (`true`) or the contract's own. It tells whether a marker word is present, nothing more.
 */
function lexical(keyword: string, code: Code, builtin: readonly string[], what: string, extra?: RegExp): ContractKeyword<Lexicon> {
  return defineKeyword<Lexicon>({
    keyword,
    code,
    type: 'string',
    check({ value, arg }) {
      if (arg === false) return [];
      const terms = arg === true ? builtin : arg;
      const text = value as string;
      if (words(text).some((w) => matchesTerm(foldWord(w), terms))) return [];
      if (arg === true && extra?.test(text) === true) return [];
      return [{ message: `has no ${what}${arg === true ? ' from the built-in list' : ' from the contract\u2019s list'}` }];
    },
  });
}

/** `emotive`: the text uses an emotionally charged word (a click thesis must be emotionally charged). */
export const emotive = lexical('emotive', 'PAYLOAD_NOT_EMOTIVE', EMOTION_TERMS, 'emotionally charged word');

/** `stakes`: the text names a time or a consequence (a click thesis must be time- or consequence-bound). */
export const stakes = lexical('stakes', 'PAYLOAD_NO_STAKES', STAKES_TERMS, 'time or consequence marker', TIME_QUANTITY);
