/**
 * What a contract means by a word and a sentence. The definitions are documented, with their
 * edge cases, in docs/formats/contract.md ("Words and sentences"); they use no locale data, so
 * every Node version and machine counts the same text the same way.
 */
import {
  ABBREVIATIONS_FINAL,
  ABBREVIATIONS_INNER,
  GENERIC_WORDS,
  META_WORDS,
  STOPWORDS,
} from './lexicon.js';

const HAN = '\\p{Script=Han}';
// Kana, with the prolonged sound marks (Script=Common) that belong to katakana words.
const KANA = '\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC\\uFF70';
// A letter, mark or digit that is not Han or kana (those follow their own rule).
const CHAR = `(?:(?![${HAN}${KANA}])[\\p{L}\\p{M}\\p{N}])`;
// Runs join across one apostrophe, hyphen or period (don't, move-out, U.S, 3.5), or a comma between digits (1,000).
const JOINED = `${CHAR}+(?:(?:['’\\-‐‑.]|(?<=\\p{N}),(?=\\p{N}))${CHAR}+)*`;
const WORD = new RegExp(`[${HAN}]|[${KANA}]+|${JOINED}`, 'gu');
const CJK_CHAR = new RegExp(`[${HAN}${KANA}]`, 'u');

/** The words of `text`, in order. Emoji, symbols and punctuation are not words. */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

export function countWords(text: string): number {
  return words(text).length;
}

const LATIN_END = '.!?…‼⁇⁈⁉';
const CJK_END = '。！？｡';
const CLOSERS = '"\'”’)]}»」』';
const PARAGRAPH_BREAK = /\r?\n[ \t]*\r?\n/y;
const STARTS_SENTENCE = /[\p{Lu}\p{Lt}\p{N}"“‘'(«[「]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}.]/u;

/** Abbreviations are short: looking this far back for the word before a period is enough. */
const LOOK_BACK = 32;

/** The word (periods inside allowed: U.S, e.g) that ends at `end`, scanning back at most LOOK_BACK characters. */
function wordBefore(text: string, end: number): string | undefined {
  let j = end;
  while (j > 0 && end - j < LOOK_BACK && WORD_CHAR.test(text[j - 1] as string)) j--;
  const word = text.slice(j, end).replace(/^\.+/, '');
  return word === '' ? undefined : word;
}

/** Does the terminator run `run` at [start, end) end a sentence, given what follows it? Linear in the text overall. */
function endsSentence(text: string, start: number, run: string, after: number): boolean {
  if ([...run].some((c) => CJK_END.includes(c))) return true;
  const next = text[after];
  if (next !== undefined && !/\s/u.test(next)) return false; // 3.5, U.S.A, example.com, "wait...what"
  let k = after;
  while (k < text.length && /\s/u.test(text[k] as string)) k++;
  const following = k < text.length ? (text.codePointAt(k) as number) : undefined;
  const startsNew = following === undefined || STARTS_SENTENCE.test(String.fromCodePoint(following));
  if (/^[.…]+$/u.test(run) && (run.includes('…') || run.length > 1)) return startsNew; // an ellipsis is a pause unless a new sentence starts
  if (run !== '.') return true;
  const before = wordBefore(text, start);
  if (before === undefined) return true;
  const lower = before.toLowerCase();
  if (/^\p{Lu}$/u.test(before)) return following === undefined; // an initial: J. K. Rowling
  if (lower === 'no') return following === undefined || !/\p{N}/u.test(String.fromCodePoint(following)); // No. 5
  if (ABBREVIATIONS_INNER.has(lower)) return following === undefined;
  if (ABBREVIATIONS_FINAL.has(lower) || /^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(before)) return startsNew; // etc., U.S., p.m.
  return true;
}

/**
 * The sentences of `text`: pieces that end at a terminator (. ! ? … and the CJK 。！？) followed by
 * whitespace or the end, or at a blank line, and that hold at least one word.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const push = (end: number): void => {
    const piece = text.slice(start, end).trim();
    if (words(piece).length > 0) out.push(piece);
    start = end;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n' || c === '\r') {
      PARAGRAPH_BREAK.lastIndex = i;
      if (PARAGRAPH_BREAK.test(text)) {
        push(i);
        i = PARAGRAPH_BREAK.lastIndex;
        continue;
      }
    }
    if (LATIN_END.includes(c) || CJK_END.includes(c)) {
      let j = i;
      while (j < text.length && (LATIN_END.includes(text[j] as string) || CJK_END.includes(text[j] as string))) j++;
      const runEnd = j;
      while (j < text.length && CLOSERS.includes(text[j] as string)) j++;
      if (endsSentence(text, i, text.slice(i, runEnd), j)) push(j);
      i = j;
      continue;
    }
    i++;
  }
  push(text.length);
  return out;
}

/** Lower-cased, NFKC, typographic apostrophes as ', for comparing words with word lists. */
export function foldWord(word: string): string {
  return word.normalize('NFKC').toLowerCase().replace(/’/g, "'");
}

/** Light suffix stripping so that destroys, destroyed and destroying compare equal. English only. */
export function stem(word: string): string {
  let w = foldWord(word).replace(/'s$/, '');
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ied')) w = w.slice(0, -3) + 'y';
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 4 && /(?:[sxz]|[cs]h)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  return w;
}

function meaningful(word: string): boolean {
  const w = foldWord(word);
  if (STOPWORDS.has(w) || GENERIC_WORDS.has(w)) return false;
  return w.length >= 2 || /\p{N}/u.test(w) || CJK_CHAR.test(w);
}

/** Words that are neither function words nor generic words (single Latin letters do not count). */
export function specificWords(text: string): string[] {
  return words(text).filter(meaningful);
}

/** The distinct stems of the specific words of `text`, minus words about the medium ("video"). */
export function keyTerms(text: string): string[] {
  const out = new Set<string>();
  for (const w of specificWords(text)) if (!META_WORDS.has(foldWord(w))) out.add(stem(w));
  return [...out];
}

/** For duplicate detection: NFKC, lower case, whitespace collapsed, trailing . ! ? … dropped. */
export function normaliseText(s: string): string {
  const t = s.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  let end = t.length;
  while (end > 0 && '.!?…'.includes(t[end - 1] as string)) end--; // a loop, not /[.!?…]+$/: no backtracking on long runs
  return t.slice(0, end).trimEnd();
}

/** `s` for a message: JSON-quoted, and cut to about `max` characters. */
export function quote(s: string, max = 60): string {
  return JSON.stringify(s.length > max ? s.slice(0, max - 3) + '...' : s);
}

/** Empty, or only whitespace and invisible format characters (zero-width space, BOM...). */
export function isBlank(s: string): boolean {
  return /^[\s\p{Cf}]*$/u.test(s);
}

const MARKDOWN: readonly (readonly [string, RegExp])[] = [
  ['a heading', /^ {0,3}#{1,6}[ \t]+\S/m],
  ['a code fence', /^ {0,3}(?:```|~~~)/m],
  ['a list item', /^ {0,3}(?:[-*+]|\d{1,3}[.)])[ \t]+\S/m],
  ['a block quote', /^ {0,3}>[ \t]/m],
  ['a table row', /^[ \t]*\|.*\|[ \t]*$/m],
  ['a horizontal rule', /^ {0,3}(?:-{3,}|\*{3,}|_{3,})[ \t]*$/m],
  ['bold text', /\*\*[^*\n]+\*\*|__[^_\n]+__/],
  // Inner classes exclude the opening character, so scanning stays linear on hostile input ("[[[[...").
  ['a link', /!?\[[^[\]\n]+\]\([^()\s]+\)/],
  ['inline code', /`[^`\n]+`/],
  ['an HTML tag', /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/i],
];

/** The first markdown construct found in `s`, named for a message. */
export function markdownIn(s: string): string | undefined {
  for (const [name, re] of MARKDOWN) if (re.test(s)) return name;
  return undefined;
}
