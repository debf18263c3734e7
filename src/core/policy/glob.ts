/**
 * Argument patterns of exec rules: `*` matches any run of characters (including none and `/`),
 * `?` exactly one, everything else itself. Patterns are anchored: `--format=*` does not match
 * `x--format=y`. There is no escape syntax, so a pattern can never mean more than it shows.
 */
const SPECIAL = /[.+^${}()|[\]\\]/g;

/** The RegExp of a pattern, or undefined for a pattern that cannot be used (contains NUL). */
export function globPattern(pattern: string): RegExp | undefined {
  if (pattern.includes('\u0000')) return undefined;
  const body = pattern.replace(SPECIAL, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${body}$`, 'u');
}

export function globMatch(pattern: string, value: string): boolean {
  return globPattern(pattern)?.test(value) === true;
}
