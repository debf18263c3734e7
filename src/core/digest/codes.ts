import type { CodeCatalogue } from '../code-spec.js';

export const DIGEST_CODES = {
  DIGEST_NOT_CANONICALIZABLE: {
    severity: 'error',
    title: 'A value cannot be put in RFC 8785 canonical form (non-finite number, lone surrogate, too deep).',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
