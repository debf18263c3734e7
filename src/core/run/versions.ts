/**
 * Choosing the newest pin of a skill id, by semver precedence as npm's own `semver` package
 * computes it: numeric pre-release parts compare as numbers (1.0.0-rc.10 is newer than
 * 1.0.0-rc.2), a pre-release sorts before its release, and build metadata does not count.
 */
import compareSemver from 'semver/functions/compare.js';
import parseSemver from 'semver/functions/parse.js';

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Semver precedence of two versions; versions of equal precedence (differing in build metadata)
 * by their text, so the order is total and the same every time. A string that is not a semantic
 * version (a hand-edited lock) sorts below every version that is, and by text among its kind.
 */
export function compareVersions(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (x !== null && y !== null) return compareSemver(x, y) || byText(a, b);
  if (x !== null) return 1;
  if (y !== null) return -1;
  return byText(a, b);
}
