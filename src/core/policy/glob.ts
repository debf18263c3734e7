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

/** The literal head of a pattern: everything before its first `*` or `?`. */
function literalHead(pattern: string): string {
  const i = pattern.search(/[*?]/);
  return i === -1 ? pattern : pattern.slice(0, i);
}

/**
 * Does `arg` reach an option a `deny_args` pattern names? Beyond a plain match, a program reads
 * options in forms a pattern does not show, and each of them is refused too:
 * - `--name=value` for a pattern `--name` (the value attached);
 * - an abbreviation of a long option: getopt_long accepts any unambiguous prefix, so
 *   `--compress-prog=gzip` reaches `--compress-program*` and `--outp=f` reaches `--output*`. The
 *   abbreviated name is expanded to the pattern's and the pattern matched again, ambiguous or
 *   not: which prefixes a program accepts depends on its other options, which skillctl does not know;
 * - a short option inside a cluster: `-ro file` reaches a denied `-o*`.
 * Allowlists (`args`) cannot be reached this way and are the safer form (docs/formats/policy.md).
 */
export function argumentDenied(patterns: readonly string[], arg: string): boolean {
  const eq = arg.indexOf('=');
  const long = /^--[^-=]/.test(arg);
  const name = long && eq > 0 ? arg.slice(0, eq) : arg;
  const cluster = /^-[^-]/.test(arg) ? arg.slice(1) : undefined;
  return patterns.some((p) => {
    if (globMatch(p, arg) || (name !== arg && globMatch(p, name))) return true;
    const head = literalHead(p);
    const option = head.includes('=') ? head.slice(0, head.indexOf('=')) : head;
    if (long && /^--[^-]/.test(option) && option.startsWith(name) && option !== name) {
      const expanded = option + arg.slice(name.length);
      if (globMatch(p, expanded) || globMatch(p, option)) return true;
    }
    // `-o` or `-o*`: the letter anywhere in a cluster of short options.
    const short = /^-([^-*?])$/.exec(head);
    return short !== null && cluster !== undefined && cluster.includes(short[1] as string);
  });
}
