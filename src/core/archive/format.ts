/**
 * Which archive a file name says it is. Kept apart from the readers, which load node:zlib: the
 * command line sorts its arguments with it before anything is read.
 */

/** `tgz`: what `pack` writes for a bundle. `skill-zip`: a `.skill` file, one top-level folder in a ZIP. */
export type ArchiveFormat = 'tgz' | 'skill-zip';

/** The format a file name ends in, or undefined for a name that is not an archive's. */
export function archiveFormatOf(path: string): ArchiveFormat | undefined {
  if (path.endsWith('.tgz') || path.endsWith('.tar.gz')) return 'tgz';
  if (path.endsWith('.skill')) return 'skill-zip';
  return undefined;
}
