/**
 * BM-L1 rendering of a pack and budget truncation. Budgets count Unicode code points (what a
 * reader sees as characters), never UTF-16 units or bytes.
 *
 * Invariants, for every pack and every budget (test/core/behaviour-packs/render.test.ts checks them for every
 * budget from 0 to the full length + 10):
 * - the output never has more code points than the effective budget;
 * - it always starts with the complete identity line;
 * - when cut, it is a prefix of whole lines followed by a line `...`, and never ends on a section
 *   header without its lines.
 */
import { PACK_MAX_CHARS, PACK_MIN_CHARS, TRUNCATION_MARK, type Pack } from './model.js';
import { pushAll } from '../findings.js';

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

/** Every line of the full rendering: identity, then each section's `[NAME]` header and lines. */
export function packLines(pack: Pack): string[] {
  const lines = [identityLine(pack)];
  for (const s of pack.sections) {
    lines.push(`[${s.name}]`);
    pushAll(lines, s.lines);
  }
  return lines;
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

/**
 * Joins `lines` with `\n`, cut to at most `maxChars` code points at a line boundary. The first line
 * is always kept whole (the caller guarantees it fits with the mark); a cut text ends `\n...`.
 */
export function fitLines(lines: readonly string[], maxChars: number): { text: string; truncated: boolean } {
  const sizes = lines.map(codePoints);
  const full = sizes.reduce((a, b) => a + b, 0) + Math.max(0, lines.length - 1);
  if (full <= maxChars) return { text: lines.join('\n'), truncated: false };
  const reserve = 1 + TRUNCATION_MARK.length;
  let kept = 1;
  let used = sizes[0] ?? 0;
  while (kept < lines.length && used + 1 + (sizes[kept] as number) + reserve <= maxChars) {
    used += 1 + (sizes[kept] as number);
    kept++;
  }
  // A header whose lines did not fit says nothing; drop it rather than end on it.
  while (kept > 1 && isHeader(lines[kept - 1] as string)) kept--;
  return { text: [...lines.slice(0, kept), TRUNCATION_MARK].join('\n'), truncated: true };
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
  /** True when the text was cut to the budget (it then ends with a line `...`). */
  readonly truncated: boolean;
}

/** Renders a validated pack to a budget of `maxChars` code points (clamped; none means no cut). */
export function renderPackText(pack: Pack, maxChars?: number): RenderedPack {
  const budget = clampBudget(maxChars);
  const { text, truncated } = fitLines(packLines(pack), budget.max_chars);
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
