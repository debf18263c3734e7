import type { CodeCatalogue } from '../code-spec.js';

/**
 * Payload contracts (docs/formats/contract.md). `PAYLOAD_*` codes are violations of a contract
 * by a payload (exit 4); each names the rule of seed 001 it enforces. `CONTRACT_*` codes are
 * about the contract files themselves and about enforcing them on a skill's output.
 */
export const CONTRACT_CODES = {
  // C1: JSON only.
  PAYLOAD_NOT_JSON: { severity: 'error', title: 'The payload is not one plain JSON value (C1: JSON only).', exit: 'contract' },
  PAYLOAD_MARKDOWN: { severity: 'error', title: 'A string carries markdown markup (C1: no markdown).', exit: 'contract' },
  PAYLOAD_MULTILINE: { severity: 'error', title: 'A one-line field holds several lines (C1: no prose blobs).', exit: 'contract' },
  // C2: explicit fields only.
  PAYLOAD_FIELD_MISSING: { severity: 'error', title: 'A field the contract requires is absent (C2: missing fields = invalid).', exit: 'contract' },
  PAYLOAD_FIELD_UNKNOWN: { severity: 'error', title: 'A field the contract does not define (C2: explicit fields only).', exit: 'contract' },
  // C3: deterministic naming.
  PAYLOAD_FIELD_RENAMED: {
    severity: 'error',
    title: 'An unknown field looks like a renamed required field (C3: names never change).',
    exit: 'contract',
  },
  PAYLOAD_TYPE: { severity: 'error', title: 'A value has the wrong JSON type.', exit: 'contract' },
  PAYLOAD_ENUM: { severity: 'error', title: 'A value is outside its allowed set (e.g. result is not PASS or FAIL).', exit: 'contract' },
  PAYLOAD_TOO_FEW_ITEMS: { severity: 'error', title: 'An array has fewer items than the contract requires.', exit: 'contract' },
  PAYLOAD_OUT_OF_RANGE: { severity: 'error', title: 'A number is outside its range (e.g. confidence outside 0.0 to 1.0).', exit: 'contract' },
  PAYLOAD_BLANK_STRING: { severity: 'error', title: 'A string is empty or only whitespace.', exit: 'contract' },
  PAYLOAD_DUPLICATE_ITEM: { severity: 'error', title: 'An array repeats an item (compared after normalisation).', exit: 'contract' },
  PAYLOAD_TOO_MANY_WORDS: { severity: 'error', title: 'A string has more words than allowed (e.g. a thumbnail text over 6 words).', exit: 'contract' },
  PAYLOAD_SENTENCE_COUNT: { severity: 'error', title: 'A string does not have exactly the required number of sentences.', exit: 'contract' },
  PAYLOAD_REQUIRED_IF: {
    severity: 'error',
    title: 'A field that a condition makes mandatory is null or absent (e.g. FAIL without failure_reason).',
    exit: 'contract',
  },
  PAYLOAD_GENERIC: { severity: 'error', title: 'A statement has too few specific words to be anything but generic.', exit: 'contract' },
  PAYLOAD_NOT_EMOTIVE: { severity: 'error', title: 'A text has no emotionally charged word from the lexicon.', exit: 'contract' },
  PAYLOAD_NO_STAKES: { severity: 'error', title: 'A text has no time or consequence marker.', exit: 'contract' },
  PAYLOAD_OFF_SUBJECT: {
    severity: 'error',
    title: "A script's opening does not use the key terms of its subject (the click thesis) in time.",
    exit: 'contract',
  },
  PAYLOAD_COLD_OPEN: { severity: 'error', title: 'A script opens with a cold open instead of its subject.', exit: 'contract' },
  PAYLOAD_VALUE_INVALID: { severity: 'error', title: 'A value breaks another JSON Schema rule of the contract.', exit: 'contract' },
  PAYLOAD_RULE_UNCHECKED: {
    severity: 'warning',
    title: 'A rule that relates output to input was not checked because no input payload was given.',
    exit: 'contract',
  },

  // The contract files.
  CONTRACT_MALFORMED: { severity: 'error', title: 'A contract file is not a valid contract (JSON, meta-schema, names, compilation).', exit: 'findings' },
  CONTRACT_UNKNOWN_KEYWORD: {
    severity: 'error',
    title: 'A contract uses a keyword that is neither JSON Schema 2020-12 nor a skillctl contract keyword.',
    exit: 'findings',
  },
  CONTRACT_DUPLICATE: {
    severity: 'error',
    title: 'Two contracts share a name or $id but differ (C3: a changed contract is a new version).',
    exit: 'findings',
  },
  CONTRACT_REF_UNRESOLVED: {
    severity: 'error',
    title: 'A $ref names a contract or location that is not in the contract set, or is malformed.',
    exit: 'findings',
  },
  CONTRACT_REF_CYCLE: {
    severity: 'error',
    title: 'A cycle of $ref (and allOf, anyOf, not...) that never moves into the payload: checking it would never end.',
    exit: 'findings',
  },
  CONTRACT_NOT_FOUND: { severity: 'error', title: 'No contract has the name, version or $id asked for.', exit: 'usage' },

  // Enforcement: discard and re-run.
  CONTRACT_OUTPUT_DISCARDED: {
    severity: 'warning',
    title: 'An output violated its contract and was discarded; the skill was run again.',
    exit: 'contract',
  },
  CONTRACT_RETRIES_EXHAUSTED: {
    severity: 'error',
    title: 'Every attempt, the first and each retry, violated the output contract.',
    exit: 'contract',
  },
} as const satisfies CodeCatalogue;
