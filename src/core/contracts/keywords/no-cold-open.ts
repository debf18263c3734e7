import { COLD_OPEN_MARKERS } from '../lexicon.js';
import { quote } from '../text.js';
import { defineKeyword, type Violation } from './types.js';
import { subjectTerms, termsInOpening, windowSize, type SubjectArg } from './subject.js';

/**
 * `noColdOpen`: the text does not start with a cold-open marker (a bracketed scene, music or
 * sound cue, "COLD OPEN", "TEASER", "INT."/"EXT.", "FADE IN"), and a key term of the subject
 * string in the input payload is spoken within `withinSeconds` (5 by default).
 */
export const noColdOpen = defineKeyword<SubjectArg>({
  keyword: 'noColdOpen',
  code: 'PAYLOAD_COLD_OPEN',
  type: 'string',
  check(c) {
    const text = c.value as string;
    const out: Violation[] = [];
    const marker = COLD_OPEN_MARKERS.exec(text);
    if (marker !== null) {
      out.push({ message: `opens with a cold-open marker: ${quote(text.trimStart().split(/\r?\n/, 1)[0] ?? '', 48)}` });
    }
    if (out.length > 0) return out; // one finding is enough: the opening is a cold open
    const terms = subjectTerms(c, 'noColdOpen');
    if (terms === undefined) return out;
    const seconds = c.arg.withinSeconds ?? 5;
    const size = windowSize(c.arg, seconds);
    if (termsInOpening(text, size, terms).length === 0) {
      out.push({ message: `uses no key term of the subject at ${c.arg.input} in its first ${size} words (about ${seconds} s): it opens on something else` });
    }
    return out;
  },
});
