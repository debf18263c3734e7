/**
 * Semantic rules of a pack that JSON Schema cannot say. Each is a pure function of a pack that
 * passed the schema, returning diagnostics with pointers.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { NEXT_LOOP_SECTION, PACK_MAX_CHARS, PACK_MIN_CHARS, REQUIRED_SECTIONS, type Pack } from './model.js';
import { forgedLine, hiddenText } from './forged.js';
import { codePoints, packLines, renderPackText } from './render.js';

export interface PackRuleContext {
  readonly pack: Pack;
  /** The file name without its extension, when the pack was read from a file. */
  readonly stem?: string;
}

export interface PackRule {
  readonly name: string;
  check(ctx: PackRuleContext): Diagnostic[];
}

/** The schema's pattern of a profile name. */
const PROFILE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Looking a profile up by file name is only sound when the file says the same. */
const profileMatchesFile: PackRule = {
  name: 'profile-matches-file',
  check: ({ pack, stem }) =>
    stem === undefined || stem === pack.profile
      ? []
      : [
          diag('PACK_PROFILE_MISMATCH', `the file declares profile ${JSON.stringify(pack.profile)} but is named ${JSON.stringify(stem)}`, {
            pointer: '/profile',
            // The stem is quoted only when it can be a profile: one holding a line break would print lines of its own.
            hint: PROFILE_NAME.test(stem) ? `rename the file to ${pack.profile}.yaml, or set profile: ${stem}` : `rename the file to ${pack.profile}.yaml`,
          }),
        ],
};

/** Small budgets keep the start of a pack, so the profile's own guidance must come first. */
const ownSectionFirst: PackRule = {
  name: 'own-section-first',
  check: ({ pack }) => {
    const own = pack.profile.toUpperCase();
    const first = pack.sections[0]?.name;
    return first === own
      ? []
      : [
          diag('PACK_SECTION_ORDER', `the first section is [${first ?? ''}]; it must be the profile's own section [${own}]`, {
            pointer: '/sections/0/name',
            hint: `move or add a section named ${own} to the top`,
          }),
        ];
  },
};

const uniqueSections: PackRule = {
  name: 'unique-sections',
  check: ({ pack }) => {
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    pack.sections.forEach((s, i) => {
      if (seen.has(s.name)) {
        out.push(diag('PACK_SECTION_DUPLICATE', `section [${s.name}] appears twice`, { pointer: `/sections/${i}/name`, hint: 'merge the two sections' }));
      }
      seen.add(s.name);
    });
    return out;
  },
};

/** The contract: every pack has a next loop that works without other context, and proof discipline. */
const requiredSections: PackRule = {
  name: 'required-sections',
  check: ({ pack }) =>
    REQUIRED_SECTIONS.filter((name) => !pack.sections.some((s) => s.name === name)).map((name) =>
      diag('PACK_SECTION_MISSING', `the pack has no [${name}] section`, { pointer: '/sections', hint: `add a section named ${name}` }),
    ),
};

/** A pack must fit the largest budget, so that asking for no budget never cuts it. */
const fitsMaxBudget: PackRule = {
  name: 'fits-max-budget',
  check: ({ pack }) => {
    const size = packLines(pack).reduce((n, l) => n + codePoints(l) + 1, -1);
    return size <= PACK_MAX_CHARS
      ? []
      : [diag('PACK_TOO_LARGE', `the rendered pack has ${size} characters; the bound is ${PACK_MAX_CHARS}`, { pointer: '/sections', hint: 'shorten or split the pack' })];
  },
};

/**
 * Every budget keeps the identity line and the whole next loop (seed 000), so the smallest budget
 * must hold them with their cut marks; otherwise a small budget could not be met.
 */
const nextLoopFitsMinBudget: PackRule = {
  name: 'next-loop-fits-min-budget',
  check: ({ pack }) => {
    const i = pack.sections.findIndex((s) => s.name === NEXT_LOOP_SECTION);
    if (i < 0) return []; // required-sections reports it
    const size = codePoints(renderPackText(pack, PACK_MIN_CHARS).text);
    return size <= PACK_MIN_CHARS
      ? []
      : [
          diag('PACK_TOO_LARGE', `the identity line and the [${NEXT_LOOP_SECTION}] section, which every budget keeps, take ${size} characters; the smallest budget is ${PACK_MIN_CHARS}`, {
            pointer: `/sections/${i}`,
            hint: 'shorten the next loop; longer guidance belongs in another section',
          }),
        ];
  },
};

/**
 * The agent takes the served text for skillctl's, so a line must not pass for skillctl's own
 * structure or print as other text than its bytes (forged.ts). The description, listed by
 * `mcp`'s prompts, must not either.
 */
const linesNotForged: PackRule = {
  name: 'lines-not-forged',
  check: ({ pack }) => {
    const hint = 'write the guidance as plain text: no invisible or direction characters, and no line shaped like skillctl\'s own output';
    const out: Diagnostic[] = [];
    const description = hiddenText(pack.description);
    if (description !== undefined) out.push(diag('PACK_LINE_FORGED', `the description is refused: ${description}`, { pointer: '/description', hint }));
    pack.sections.forEach((s, i) =>
      s.lines.forEach((line, j) => {
        const why = forgedLine(line);
        if (why !== undefined) out.push(diag('PACK_LINE_FORGED', `line ${j + 1} of [${s.name}] is refused: ${why}`, { pointer: `/sections/${i}/lines/${j}`, hint }));
      }),
    );
    return out;
  },
};

export const PACK_RULES: readonly PackRule[] = [profileMatchesFile, ownSectionFirst, uniqueSections, requiredSections, linesNotForged, fitsMaxBudget, nextLoopFitsMinBudget];
