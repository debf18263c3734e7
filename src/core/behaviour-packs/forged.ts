/**
 * Whether a pack's line reads as skillctl's own structure once it is served. The pack is a skill
 * author's text; the agent that gets it (and the host that reviewed it) takes the BM-L1 text for
 * skillctl's, so a line must never pass for what skillctl itself prints around the author's
 * lines, nor print as other text than its bytes. The schema already refuses control characters,
 * line breaks, leading whitespace and a leading `[`; this refuses what gets past it:
 *
 * - characters that show nothing, reorder or hide text, or print as another character: every
 *   format character (Cf) and default-ignorable code point of Unicode 17 (zero-width spaces and
 *   joiners, bidi marks, embeddings, overrides and isolates, the soft hyphen, variation selectors,
 *   tag characters, Hangul fillers), and an unpaired UTF-16 surrogate (printed as U+FFFD). The
 *   set is written out, not taken from `\p{Cf}`, so every Node version refuses the same lines.
 *   Emoji keep working: a variation selector right after an emoji, and a zero-width joiner
 *   between two pictographs (👩‍💻), are allowed;
 * - a line that, compared in NFKC form (so fullwidth `［` is `[` and `…` is `...`) with the
 *   lookalikes of every script read as the Latin letters they print as, is another
 *   identity line (`skill profile=…`), a cut mark (only dots), a section header (`[`, or a
 *   section-like name between any two brackets: `⁅NEXT LOOP⁆`), a finding as skillctl prints one
 *   (`warning PACK_BUDGET_CLAMPED: …`), or starts with a blank braille cell (an indent the schema's
 *   whitespace rule does not see);
 * - five or more combining marks in a row, drawn over the lines around them.
 *
 * Pure and linear in the line's length.
 */

import { CONFUSABLE_LETTERS } from './confusable-letters.js';

/** The format and default-ignorable code points (Unicode 17, the same under Node 20 and 24), as ranges. */
const INVISIBLE: readonly (readonly [number, number])[] = [
  [0xad, 0xad], [0x34f, 0x34f], [0x600, 0x605], [0x61c, 0x61c], [0x6dd, 0x6dd], [0x70f, 0x70f], [0x890, 0x891], [0x8e2, 0x8e2],
  [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164],
  [0xd800, 0xdfff], // an unpaired surrogate: a pair is read as one code point below
  [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfffb], [0x110bd, 0x110bd], [0x110cd, 0x110cd],
  [0x13430, 0x1343f], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
];

const invisible = (c: number): boolean => INVISIBLE.some(([from, to]) => c >= from && c <= to);

/** A variation selector after an emoji, and a joiner between pictographs: what emoji are made of. */
const EMOJI_VARIATION = /(\p{Emoji})[\ufe0e\ufe0f]/gu;
const EMOJI_JOINER = /(\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}]?)\u200d(?=\p{Extended_Pictographic})/gu;

/**
 * Letters of other scripts that print as Latin ones (`ѕkill` is Cyrillic dze and `kill`), each
 * with the letter it passes for: every letter and digit Unicode's confusables data gives as one
 * Latin letter (confusable-letters.ts: Cyrillic, Greek, Cherokee, Lisu, Canadian syllabics, Runic,
 * Lycian, Carian and more), then these by hand, which take precedence: the Cyrillic and Greek
 * capitals that pass for `I` (the data says `l`), lowercase Cyrillic `к` and Greek `κ`, and
 * every Latin small capital as the letter it is (`ꜱᴋɪʟʟ`; the data names a few). NFKC leaves them all alone.
 */
const BY_HAND: readonly (readonly [string, string])[] = (
  'аa вB сc еe һh іi јj ӏl ԁd оo рp ԛq ѕs ԝw хx уy кk ѵv ' +
  'АA ВB СC ЕE НH ІI ЈJ КK МM ОO РP ЅS ТT ХX ҮY ԚQ ԜW ӀI ' +
  'αa οo ρp ιi κk νv υu ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX ' +
  'ᴀa ʙb ᴄc ᴅd ᴇe ꜰf ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ꞯq ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz'
)
  .split(' ')
  .map((pair) => [pair.slice(0, 1), pair.slice(1)] as const);

const LOOKALIKES = new Map([...CONFUSABLE_LETTERS, ...BY_HAND]);

/** `line` as it reads: NFKC (fullwidth `［` is `[`, `…` is `...`), then each lookalike as its Latin letter. */
function skeleton(line: string): string {
  let out = '';
  for (const ch of line.normalize('NFKC')) out += LOOKALIKES.get(ch) ?? ch;
  return out;
}

/** What skillctl prints around a pack's lines, each with what a line shaped so would pass for. */
const STRUCTURE: readonly (readonly [RegExp, string])[] = [
  // `l` and `i` also as `I`, `1` or `|`, which many fonts draw alike.
  [/^sk[il1|]{3}\s*pr[o0]f[il1|][il1|]e\s*=/i, 'an identity line (skill profile=…), as if another pack started here'],
  [/^[.\s]+$/, 'the line `...` that stands for lines a budget cut out'],
  [/^\[/, 'a section header [NAME]'],
  [/^[\p{P}\p{S}]\s*[A-Z][A-Z0-9]*(?:[ -][A-Z0-9]+)*\s*[\p{P}\p{S}]$/u, 'a section header [NAME]'],
  [/^(?:\d+:\d+\s+)?(?:error|warning|info)\b[\s:]*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/, 'a finding skillctl prints (severity and code)'],
  [/^\u2800/, 'an indented line (it starts with a blank braille cell)'],
];

const hex = (c: number): string => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` prints as other text than its bytes (its first hidden character), or undefined. */
export function hiddenText(text: string): string | undefined {
  const bare = text.replace(EMOJI_VARIATION, '$1').replace(EMOJI_JOINER, '$1');
  // for…of walks code points: a surrogate pair is one (an astral character), a lone surrogate its own.
  for (const ch of bare) {
    const c = ch.codePointAt(0) as number;
    if (!invisible(c)) continue;
    const what = c >= 0xd800 && c <= 0xdfff ? 'an unpaired UTF-16 surrogate' : 'an invisible or format character';
    return `it holds ${what} (${hex(c)}), which prints as other text than its bytes`;
  }
  return undefined;
}

/**
 * More combining marks on one character than ordinary text stacks (Vietnamese stacks two, Tibetan
 * and Hebrew with cantillation three or four): some agent UIs draw such a stack over the lines
 * above and below it, where it covers or passes for their text.
 */
const STACKED_MARKS = /\p{M}{5,}/u;

/** Why `line` cannot be served as a pack's line, or undefined when it can. */
export function forgedLine(line: string): string | undefined {
  const hidden = hiddenText(line);
  if (hidden !== undefined) return hidden;
  const stack = STACKED_MARKS.exec(line);
  if (stack !== null) return `it stacks ${[...stack[0]].length} combining marks on one character, which prints over the lines around it`;
  const reads = skeleton(line);
  const shape = STRUCTURE.find(([re]) => re.test(reads));
  return shape === undefined ? undefined : `it reads as ${shape[1]}`;
}
