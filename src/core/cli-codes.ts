import type { CodeCatalogue } from './diagnostics.js';

/** Codes for command-line use: arguments, unreadable input, internal failures. */
export const CLI_CODES = {
  USAGE: { severity: 'error', title: 'The command line is not valid.', exit: 'usage' },
  INPUT_NOT_FOUND: { severity: 'error', title: 'A path given on the command line does not exist.', exit: 'usage' },
  INPUT_UNREADABLE: { severity: 'error', title: 'A file or directory could not be read.', exit: 'usage' },
  NO_INPUT: { severity: 'error', title: 'Nothing matched the paths or globs given.', exit: 'usage' },
  OUTPUT_UNWRITABLE: { severity: 'error', title: 'The place the command would write to cannot be created or written, or lies inside its own input.', exit: 'usage' },
  OUTPUT_EXISTS: { severity: 'error', title: 'A file the command would write already exists; --force replaces it.', exit: 'usage' },
  INTERNAL: { severity: 'error', title: 'An unexpected internal error (a bug in skillctl).', exit: 'findings' },
} as const satisfies CodeCatalogue;
