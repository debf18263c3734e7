/**
 * BM-L1 rendering of a pack and budget truncation. Budgets count Unicode code points (what a
 * reader sees as characters), never UTF-16 units or bytes.
 *
 * Invariants, for every pack and every budget (test/core/behaviour-packs/render.test.ts checks them for every
 * budget from 0 to the full length + 10):
 * - the output never has more code points than the effective budget;
 * - it always starts with the complete identity line and holds the complete NEXT LOOP section;
 * - when cut, the other lines kept are the longest run from the start of the pack that fits, each
 *   run of dropped lines is one line `...`, and no section header is kept without one of its lines.
 */
import { NEXT_LOOP_SECTION, PACK_MAX_CHARS, PACK_MIN_CHARS, TRUNCATION_MARK, type Pack } from './model.js';

/** Number of Unicode code points in `s`. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** `skill profile=<profile> version=<skill_pack_version>`: the first line of every rendering. */
export function identityLine(pack: Pack): string {
  return `skill profile=${pack.profile} version=${pack.skill_pack_version}`;
}

/** A line of the full rendering, and whether every budget keeps it. */
export interface PackLine {
  readonly text: string;
  /** The identity line and the NEXT LOOP section: seed 000 says a pack always includes its next loop. */
  readonly pinned: boolean;
}

/** Every line of the full rendering: identity, then each section's `[NAME]` header and lines. */
export function packLayout(pack: Pack): PackLine[] {
  const lines: PackLine[] = [{ text: identityLine(pack), pinned: true }];
  for (const s of pack.sections) {
    const pinned = s.name === NEXT_LOOP_SECTION;
    lines.push({ text: `[${s.name}]`, pinned });
    for (const text of s.lines) lines.push({ text, pinned });
  }
  return lines;
}

/** The text of every line of the full rendering (see packLayout). */
export function packLines(pack: Pack): string[] {
  return packLayout(pack).map((l) => l.text);
}

export interface Budget {
  /** The budget applied: the request clamped to [PACK_MIN_CHARS, PACK_MAX_CHARS]. */
  readonly max_chars: number;
  /** True when the requested value was outside the range. */
  readonly clamped: boolean;
}

/** The effective budget of a request; no request means the maximum (which every valid pack fits). */
export function clampBudget(requested: number | undefined): Budget {
  if (requested === undefined) return { max_chars: PACK_MAX_CHARS, clamped: false };
  const max_chars = Math.min(PACK_MAX_CHARS, Math.max(PACK_MIN_CHARS, requested));
  return { max_chars, clamped: max_chars !== requested };
}

function isHeader(line: string): boolean {
  return line.startsWith('[');
}

/** What `fitLines` keeps: indices into its lines, with -1 for a line `...`. */
function selection(lines: readonly PackLine[], keep: (i: number) => boolean): number[] {
  const out: number[] = [];
  let cut = false;
  lines.forEach((_, i) => {
    if (!keep(i)) {
      cut = true;
      return;
    }
    if (cut) out.push(-1);
    cut = false;
    out.push(i);
  });
  if (cut) out.push(-1);
  return out;
}

/**
 * Joins `lines` with `\n`, cut to at most `maxChars` code points at line boundaries. Pinned lines
 * (the identity line and the next loop) are always kept whole; of the others, the longest run
 * from the start that fits is kept, and each run of dropped lines becomes one line `...`. A cut
 * pack so reads: identity, the start of its own section, `...`, the next loop, `...`. The caller
 * guarantees that the pinned lines and their marks fit (PACK_MIN_CHARS and the rule that
 * enforces it); when they do not, the result is that smallest rendering, over the budget.
 */
export function fitLines(lines: readonly PackLine[], maxChars: number): { text: string; truncated: boolean } {
  const sizes = lines.map((l) => codePoints(l.text));
  if (sizes.reduce((a, b) => a + b + 1, -1) <= maxChars) return { text: lines.map((l) => l.text).join('\n'), truncated: false };
  // The lines a budget may drop, in order. Keeping the first k of them drops the rest, and each
  // run of those (split only by pinned lines) costs a mark: runsFrom[k] counts the runs.
  const droppable = lines.flatMap((l, i) => (l.pinned ? [] : [i]));
  const runsFrom = new Array<number>(droppable.length + 1).fill(0);
  for (let k = droppable.length - 1; k >= 0; k--) {
    const joined = k + 1 < droppable.length && droppable[k + 1] === (droppable[k] as number) + 1;
    runsFrom[k] = (runsFrom[k + 1] as number) + (joined ? 0 : 1);
  }
  const pinned = lines.reduce((n, l, i) => n + (l.pinned ? (sizes[i] as number) + 1 : 0), -1);
  let best = 0;
  let kept = 0;
  // Every length is tried, not only up to the first that does not fit: closing the cut in front
  // of the next loop saves a mark, so a longer run can give a shorter text than the one before.
  for (let k = 1; k < droppable.length; k++) {
    const last = droppable[k - 1] as number;
    kept += (sizes[last] as number) + 1;
    // A header whose lines did not fit says nothing; never end the kept run on one.
    if (isHeader((lines[last] as PackLine).text)) continue;
    if (pinned + kept + (runsFrom[k] as number) * (TRUNCATION_MARK.length + 1) <= maxChars) best = k;
  }
  const firstCut = droppable[best] ?? lines.length;
  const picked = selection(lines, (i) => (lines[i] as PackLine).pinned || i < firstCut);
  return { text: picked.map((i) => (i < 0 ? TRUNCATION_MARK : (lines[i] as PackLine).text)).join('\n'), truncated: true };
}

/** A rendered pack and the budget it was rendered to. */
export interface RenderedPack {
  readonly profile: string;
  readonly skill_pack_version: string;
  /** The BM-L1 text, without a trailing newline. */
  readonly text: string;
  /** The effective budget (the request after clamping). */
  readonly max_chars: number;
  /** The budget as requested, or null when none was. */
  readonly max_chars_requested: number | null;
  /** True when the request was outside [PACK_MIN_CHARS, PACK_MAX_CHARS]. */
  readonly clamped: boolean;
  /** True when the text was cut to the budget (each run of lines cut out is then a line `...`). */
  readonly truncated: boolean;
}

/** Renders a validated pack to a budget of `maxChars` code points (clamped; none means no cut). */
export function renderPackText(pack: Pack, maxChars?: number): RenderedPack {
  const budget = clampBudget(maxChars);
  const { text, truncated } = fitLines(packLayout(pack), budget.max_chars);
  return {
    profile: pack.profile,
    skill_pack_version: pack.skill_pack_version,
    text,
    max_chars: budget.max_chars,
    max_chars_requested: maxChars ?? null,
    clamped: budget.clamped,
    truncated,
  };
}
