import type { CodeCatalogue } from '../code-spec.js';

/** Reading the index or a commit with git (`verify-pins --staged`, `--rev`). */
export const GIT_TREE_CODES = {
  GIT_TREE_UNREADABLE: {
    severity: 'error',
    title: 'The index or the commit to verify could not be read with git.',
    exit: 'usage',
  },
} as const satisfies CodeCatalogue;
