import type { CodeCatalogue } from '../core/code-spec.js';

/** Codes only the command line reports: the core never produces them. */
export const CLI_CODES = {
  INTERNAL: { severity: 'error', title: 'An unexpected internal error (a bug in skillctl).', exit: 'findings' },
} as const satisfies CodeCatalogue;

export type CliCode = keyof typeof CLI_CODES;
