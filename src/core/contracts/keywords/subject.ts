import { parsePointer } from '../../manifest/index.js';
import { keyTerms, stem, words } from '../text.js';
import type { KeywordCheck } from './types.js';

/** Arguments of the keywords that relate a script to its subject in the input payload. */
export interface SubjectArg {
  /** JSON pointer to the subject string in the input payload, e.g. /click_thesis. */
  readonly input: string;
  readonly withinSeconds?: number;
  /** Speaking pace that turns seconds into words; 160 when absent. */
  readonly wordsPerMinute?: number;
}

export const DEFAULT_WORDS_PER_MINUTE = 160;

/**
 * The key terms of the subject string, or undefined after recording why the rule could not run
 * (no input payload given, nothing at the pointer, or no key term in the subject).
 */
export function subjectTerms(c: KeywordCheck<SubjectArg>, keyword: string): string[] | undefined {
  const skip = (why: string): undefined => {
    c.context.unchecked.push({ pointer: c.pointer, message: `${keyword} not checked: ${why}` });
    return undefined;
  };
  if (c.context.input === undefined) return skip(`it needs the input payload (the subject at ${c.arg.input})`);
  let cur: unknown = c.context.input.value;
  for (const seg of parsePointer(c.arg.input)) {
    cur = cur !== null && typeof cur === 'object' && Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  if (typeof cur !== 'string') return skip(`the input payload has no string at ${c.arg.input}`);
  const terms = keyTerms(cur);
  return terms.length > 0 ? terms : skip(`the subject at ${c.arg.input} has no key term`);
}

/** How many words are spoken in `seconds` at the pace of `arg`. */
export function windowSize(arg: SubjectArg, seconds: number): number {
  return Math.max(1, Math.floor((seconds * (arg.wordsPerMinute ?? DEFAULT_WORDS_PER_MINUTE)) / 60));
}

/** The subject's key terms found among the first `size` words of `text`. */
export function termsInOpening(text: string, size: number, terms: readonly string[]): string[] {
  const opening = new Set(words(text).slice(0, size).map(stem));
  return terms.filter((t) => opening.has(t));
}
