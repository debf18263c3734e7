import { defineKeyword } from './types.js';
import { subjectTerms, termsInOpening, windowSize, type SubjectArg } from './subject.js';

export interface AddressesSubjectArg extends SubjectArg {
  readonly minTerms?: number;
}

/**
 * `addressesSubject`: the words spoken in the first `withinSeconds` (15 by default) use at least
 * `minTerms` (2 by default, or all when the subject has fewer) key terms of the subject string
 * in the input payload. A proxy for "the first 15 seconds explicitly address the ClickThesis":
 * it sees shared words, not meaning (docs/formats/contract.md).
 */
export const addressesSubject = defineKeyword<AddressesSubjectArg>({
  keyword: 'addressesSubject',
  code: 'PAYLOAD_OFF_SUBJECT',
  type: 'string',
  check(c) {
    const terms = subjectTerms(c, 'addressesSubject');
    if (terms === undefined) return [];
    const seconds = c.arg.withinSeconds ?? 15;
    const size = windowSize(c.arg, seconds);
    const need = Math.min(c.arg.minTerms ?? 2, terms.length);
    const hits = termsInOpening(c.value as string, size, terms);
    if (hits.length >= need) return [];
    return [
      {
        message:
          `uses ${hits.length} key term${hits.length === 1 ? '' : 's'} of the subject at ${c.arg.input}${hits.length > 0 ? ` (${hits.join(', ')})` : ''} ` +
          `in its first ${size} words (about ${seconds} s); at least ${need} of: ${terms.join(', ')}`,
      },
    ];
  },
});
