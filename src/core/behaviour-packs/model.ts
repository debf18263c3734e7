/**
 * Behaviour packs: versioned guidance text an agent loads before it works with skills, rendered
 * as BM-L1 lines by `skillctl skill`. The file format is schemas/skill.pack.v1.schema.json.
 */

/** One `[NAME]` header line followed by its guidance lines. */
export interface PackSection {
  readonly name: string;
  readonly lines: readonly string[];
}

/** A pack as its file declares it (after validation). */
export interface Pack {
  readonly profile: string;
  readonly skill_pack_version: string;
  /** Who the pack is for; not rendered. */
  readonly description: string;
  readonly sections: readonly PackSection[];
}

/**
 * Smallest effective `max_chars`. Every budget keeps the identity line and the whole next loop
 * (seed 000: "the pack always includes a next loop"), with a line `...` for each cut around it, so
 * the floor must hold them: for the built-in packs it also holds their own section's opening line,
 * the profile's gist (research needs the most, 552). An operator pack whose identity line, next
 * loop and marks do not fit is refused (PACK_TOO_LARGE, rules.ts), so every budget can be met.
 */
export const PACK_MIN_CHARS = 600;
/** Largest effective `max_chars`, and the bound on a pack's full rendered text. */
export const PACK_MAX_CHARS = 16_000;
/** Largest pack file read from a --packs directory. */
export const PACK_MAX_FILE_BYTES = 64 * 1024;
/**
 * Most pack files a --packs directory may hold. Every `skill --packs` call reads them all (2 ms
 * each): 20,000 held a call minutes. A real directory holds a handful.
 */
export const PACK_MAX_FILES = 256;
/** The profile of a request that names none. */
export const DEFAULT_PROFILE = 'daily';
/** The section every budget keeps whole: the loop an agent can follow without other context. */
export const NEXT_LOOP_SECTION = 'NEXT LOOP';
/** Sections every pack carries: the next loop (actionable without other context) and proof discipline. */
export const REQUIRED_SECTIONS = [NEXT_LOOP_SECTION, 'PROOF'] as const;
/** Stands, as a line of its own, for each run of lines a budget cut out. */
export const TRUNCATION_MARK = '...';
