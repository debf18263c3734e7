import type { CodeCatalogue } from '../code-spec.js';

/** Findings of a document against its JSON Schema (manifests, lock files, policies, packs...). */
export const JSON_SCHEMA_CODES = {
  SCHEMA_REQUIRED: { severity: 'error', title: 'A required field is missing.', exit: 'findings' },
  SCHEMA_UNKNOWN_FIELD: { severity: 'error', title: 'A field the document format does not define.', exit: 'findings' },
  SCHEMA_TYPE: { severity: 'error', title: 'A field has the wrong type.', exit: 'findings' },
  SCHEMA_ENUM: { severity: 'error', title: 'A field has a value outside its allowed set.', exit: 'findings' },
  SCHEMA_FORMAT: { severity: 'error', title: 'A string does not have the required form.', exit: 'findings' },
  SCHEMA_CONSTRAINT: {
    severity: 'error',
    title: 'A value breaks a size, count, range or uniqueness constraint.',
    exit: 'findings',
  },
  SCHEMA_VALUE_INVALID: {
    severity: 'error',
    title: 'A value (a run input, a skill output, a payload) does not conform to its JSON Schema.',
    exit: 'contract',
  },
  SCHEMA_CHECK_TOO_COSTLY: {
    severity: 'error',
    title: "A value was not checked against its JSON Schema: the schema's check ran past its time bound.",
    exit: 'contract',
  },
  SCHEMA_UNCOMPILABLE: { severity: 'error', title: 'A JSON Schema cannot be compiled (bad regex, unresolvable $ref).', exit: 'findings' },
} as const satisfies CodeCatalogue;
