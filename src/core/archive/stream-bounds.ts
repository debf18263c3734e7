/**
 * Bounds for an archive that is unpacked as it streams (a pulled or pushed layer) rather than
 * held in memory: memory no longer limits it, disk does. The unpacked bytes may be 16 times the
 * compressed size (gzip of real skills stays well under that; a decompression bomb's ratio is
 * in the hundreds) and never less than the in-memory bound nor more than 8 GiB, so a bomb
 * writes at most that much into a scratch folder that is removed again, and a 1 GB layer fits.
 */
import { DEFAULT_ARCHIVE_BOUNDS } from './read-tgz.js';
import type { ArchiveBounds } from './tar-walk.js';

/** The largest unpacked size of any streamed archive, and so the largest layer a pull fetches. */
export const STREAMED_ARCHIVE_CEILING = 8 * 1024 ** 3;

/** How many times its compressed size a streamed archive may unpack to. */
export const STREAMED_ARCHIVE_RATIO = 16;

export function streamedArchiveBounds(compressedSize: number): ArchiveBounds {
  const bytes = Math.min(STREAMED_ARCHIVE_CEILING, Math.max(DEFAULT_ARCHIVE_BOUNDS.maxTotalBytes, STREAMED_ARCHIVE_RATIO * compressedSize));
  return { maxFiles: DEFAULT_ARCHIVE_BOUNDS.maxFiles, maxTotalBytes: bytes };
}
