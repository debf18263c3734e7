/**
 * The bundle `content_digest` recipe (docs/formats/digests.md):
 * sha256 of the JCS of `{"files":[{"path","size","digest","mode"}...]}` over every file except
 * the manifest, sorted by the UTF-8 bytes of the POSIX relative path.
 */
import { jcsDigest, sha256, type Sha256Digest } from './sha256.js';

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

/** A UTF-16 code unit shifted so that unit order is code point order (surrogates above U+FFFF). */
function rank(u: number): number {
  return u >= 0xe000 ? u - 0x800 : u >= 0xd800 ? u + 0x2000 : u;
}

/**
 * Byte order of UTF-8 paths, which is code point order and differs from UTF-16 order above
 * U+FFFF. Compared unit by unit without encoding: sorting thousands of paths allocates nothing.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

export function sortTreeFiles(files: readonly TreeFile[]): TreeFile[] {
  return [...files].sort((a, b) => comparePaths(a.path, b.path));
}

/** Strings JSON.stringify writes exactly as RFC 8785 does (no unpaired surrogate to refuse). */
const PLAIN = /^[^\ud800-\udfff]*$/;

export function treeDigest(files: readonly TreeFile[]): Sha256Digest {
  const sorted = sortTreeFiles(files);
  // The RFC 8785 text of {"files":[{"digest","mode","path","size"}...]}, written directly: the
  // keys in their canonical order, strings and integers as JSON.stringify writes them, which is
  // RFC 8785's form. Anything unusual goes through the general canonicaliser (which also refuses
  // what JSON cannot carry); a test checks both give the same digest.
  const parts: string[] = [];
  for (const f of sorted) {
    if (!PLAIN.test(f.path) || !Number.isSafeInteger(f.size) || f.size < 0) {
      return jcsDigest({ files: sorted.map((g) => ({ path: g.path, size: g.size, digest: g.digest, mode: g.mode })) });
    }
    parts.push(`{"digest":${JSON.stringify(f.digest)},"mode":${JSON.stringify(f.mode)},"path":${JSON.stringify(f.path)},"size":${f.size}}`);
  }
  return sha256(`{"files":[${parts.join(',')}]}`);
}
