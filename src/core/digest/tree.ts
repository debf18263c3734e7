/**
 * The bundle `content_digest` recipe (docs/formats/digests.md):
 * sha256 of the JCS of `{"files":[{"path","size","digest","mode"}...]}` over every file except
 * the manifest, sorted by the UTF-8 bytes of the POSIX relative path.
 */
import { jcsDigest, type Sha256Digest } from './sha256.js';

export type FileMode = '0644' | '0755';

export interface TreeFile {
  /** POSIX path relative to the bundle root, no `.` or `..` segments. */
  readonly path: string;
  readonly size: number;
  readonly digest: Sha256Digest;
  readonly mode: FileMode;
}

/** `0755` when any execute bit is set, else `0644`: the only two modes a bundle records. */
export function modeOf(statMode: number): FileMode {
  return (statMode & 0o111) !== 0 ? '0755' : '0644';
}

/** Byte order of UTF-8 paths, which differs from UTF-16 order above U+FFFF. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function sortTreeFiles(files: readonly TreeFile[]): TreeFile[] {
  return [...files].sort((a, b) => comparePaths(a.path, b.path));
}

export function treeDigest(files: readonly TreeFile[]): Sha256Digest {
  const sorted = sortTreeFiles(files).map((f) => ({ path: f.path, size: f.size, digest: f.digest, mode: f.mode }));
  return jcsDigest({ files: sorted });
}
