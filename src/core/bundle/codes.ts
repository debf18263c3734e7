import type { CodeCatalogue } from '../code-spec.js';

export const BUNDLE_CODES = {
  BUNDLE_NOT_FOUND: { severity: 'error', title: 'The bundle directory does not exist or is not a directory.', exit: 'usage' },
  BUNDLE_NO_MANIFEST: { severity: 'error', title: 'The bundle has no skill.yaml or skill.json at its root.', exit: 'findings' },
  BUNDLE_AMBIGUOUS_MANIFEST: {
    severity: 'error',
    title: 'The bundle has both skill.yaml and skill.json; exactly one is allowed.',
    exit: 'findings',
  },
  BUNDLE_SYMLINK: { severity: 'error', title: 'The bundle contains a symbolic link; bundles hold regular files only.', exit: 'findings' },
  BUNDLE_ROOT_CHANGED: {
    severity: 'error',
    title: 'The bundle folder was replaced (by a symbolic link or another directory) between its walk and a read, or a root `mcp --skills` serves since the server found it.',
    exit: 'findings',
  },
  BUNDLE_SPECIAL_FILE: {
    severity: 'error',
    title: 'The bundle contains a device, FIFO or socket; bundles hold regular files only.',
    exit: 'findings',
  },
  BUNDLE_PATH_INVALID: {
    severity: 'error',
    title: 'A file name in the bundle is not portable (control character, backslash, or not UTF-8), or its path is longer than 4096 bytes.',
    exit: 'findings',
  },
  BUNDLE_PATH_COLLISION: {
    severity: 'error',
    title: 'Two names in one folder of the bundle differ only in case or Unicode normalisation (SKILL.md and Skill.md): a macOS or Windows checkout keeps one file.',
    exit: 'findings',
  },
  BUNDLE_TOO_LARGE: { severity: 'error', title: 'The bundle exceeds the file-count or total-size bound.', exit: 'findings' },
  BUNDLE_UNREADABLE: { severity: 'error', title: 'A file or directory in the bundle could not be read.', exit: 'findings' },
} as const satisfies CodeCatalogue;
