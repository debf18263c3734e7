import type { CodeCatalogue } from './code-spec.js';

/**
 * Codes for what a caller asks the core to read or write, and for request arguments the core
 * cannot act on (USAGE): the CLI reports them for command-line input, the library for its own.
 * FINDINGS_TRUNCATED counts the findings of one input past the cap of findings.ts.
 */
export const IO_CODES = {
  USAGE: { severity: 'error', title: 'The command line is not valid.', exit: 'usage' },
  INPUT_NOT_FOUND: { severity: 'error', title: 'A path given on the command line does not exist.', exit: 'usage' },
  INPUT_UNREADABLE: { severity: 'error', title: 'A file or directory could not be read.', exit: 'usage' },
  INPUT_NOT_REGULAR_FILE: {
    severity: 'error',
    title: 'A file to read is a FIFO, device, socket or directory; it is refused before it is opened.',
    exit: 'usage',
  },
  NO_INPUT: { severity: 'error', title: 'Nothing matched the paths or globs given.', exit: 'usage' },
  OUTPUT_UNWRITABLE: { severity: 'error', title: 'The place the command would write to cannot be created or written, or lies inside its own input.', exit: 'usage' },
  OUTPUT_EXISTS: { severity: 'error', title: 'A file the command would write already exists; --force replaces it.', exit: 'usage' },
  PROJECT_ROOT_FOREIGN: {
    severity: 'warning',
    title: 'A folder holding a lock or .git that another user owns (or its pins/, lock or .git) is not taken for the project root.',
    exit: 'findings',
  },
  FINDINGS_TRUNCATED: {
    severity: 'error',
    title: 'An input had more findings than are listed (1,000); this one counts the rest.',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
