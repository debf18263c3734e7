import type { CodeCatalogue } from '../code-spec.js';

/** Findings about a bundle archive (.tgz): what `pack` refuses to write and readers refuse to read. */
export const ARCHIVE_CODES = {
  ARCHIVE_MALFORMED: {
    severity: 'error',
    title: 'The archive is not a well-formed gzip-compressed tar (bad checksum, truncated, unknown header).',
    exit: 'findings',
  },
  ARCHIVE_PATH_UNSAFE: {
    severity: 'error',
    title: 'An archive entry has an absolute path, a `..` or `.` segment, a backslash, a non-portable name, or a path longer than 4096 bytes.',
    exit: 'findings',
  },
  ARCHIVE_LINK: { severity: 'error', title: 'The archive contains a symbolic or hard link.', exit: 'findings' },
  ARCHIVE_SPECIAL_ENTRY: {
    severity: 'error',
    title: 'The archive contains a device, FIFO, sparse file or other entry that is not a regular file or directory.',
    exit: 'findings',
  },
  ARCHIVE_DUPLICATE_ENTRY: {
    severity: 'error',
    title: 'Two archive entries have the same path, or a file path is also used as a directory.',
    exit: 'findings',
  },
  ARCHIVE_TOO_LARGE: {
    severity: 'error',
    title: 'The archive exceeds the entry-count, folder-count or unpacked-size bound (a decompression bomb is refused, not unpacked).',
    exit: 'findings',
  },
  ARCHIVE_IMMUTABLE: {
    severity: 'error',
    title: 'An archive of this (skill_id, skill_version) already exists with other bytes; an identity never changes content (pack --force).',
    exit: 'findings',
  },
  ARCHIVE_TARGET_INVALID: {
    severity: 'error',
    title: 'The directory to unpack into exists and is not empty, cannot be created, or a file cannot be written in it (a path too long under it, a full disk).',
    exit: 'usage',
  },
} as const satisfies CodeCatalogue;
