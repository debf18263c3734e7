import type { CodeCatalogue } from '../code-spec.js';

/** Codes of behaviour packs (`skillctl skill`). INVALID_INPUT is the seed's name for a bad request. */
export const PACK_CODES = {
  INVALID_INPUT: {
    severity: 'error',
    title: 'A pack request is not an object, names an unknown profile or field, or has a max_chars that is not an integer.',
    exit: 'usage',
  },
  PACK_BUDGET_CLAMPED: {
    severity: 'warning',
    title: 'max_chars was outside the allowed range and was raised or lowered to it.',
    exit: 'findings',
  },
  PACK_PROFILE_MISMATCH: { severity: 'error', title: 'A pack file is not named after the profile it declares.', exit: 'findings' },
  PACK_PROFILE_RESERVED: {
    severity: 'error',
    title: 'An operator pack uses the name of a built-in profile, which cannot be overridden.',
    exit: 'findings',
  },
  PACK_PROFILE_DUPLICATE: { severity: 'error', title: 'Two files in a packs directory declare the same profile.', exit: 'findings' },
  PACK_SECTION_ORDER: { severity: 'error', title: "A pack's first section is not its own profile section.", exit: 'findings' },
  PACK_SECTION_DUPLICATE: { severity: 'error', title: 'A pack has two sections with the same name.', exit: 'findings' },
  PACK_SECTION_MISSING: { severity: 'error', title: 'A pack has no NEXT LOOP or no PROOF section.', exit: 'findings' },
  PACK_LINE_FORGED: {
    severity: 'error',
    title: "A pack's line reads as skillctl's own output (an identity line, a section header, a cut mark, a finding), or a line or the description holds an invisible or format character.",
    exit: 'findings',
  },
  PACK_TOO_LARGE: {
    severity: 'error',
    title: 'A pack file or its rendered text is larger than the bound, its next loop does not fit the smallest budget, or a packs directory holds more than 256 pack files.',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
