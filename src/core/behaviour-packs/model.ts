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
 * Smallest effective `max_chars`. A profile name and a version are each at most 32 characters, so
 * the identity line is at most 87 and the identity line plus `\n...` fits in 91: every budget keeps
 * the complete identity line.
 */
export const PACK_MIN_CHARS = 100;
/** Largest effective `max_chars`, and the bound on a pack's full rendered text. */
export const PACK_MAX_CHARS = 16_000;
/** Largest pack file read from a --packs directory. */
export const PACK_MAX_FILE_BYTES = 64 * 1024;
/** The profile of a request that names none. */
export const DEFAULT_PROFILE = 'daily';
/** Sections every pack carries: the next loop (actionable without other context) and proof discipline. */
export const REQUIRED_SECTIONS = ['NEXT LOOP', 'PROOF'] as const;
/** Appended, as a line of its own, to a truncated text. */
export const TRUNCATION_MARK = '...';
