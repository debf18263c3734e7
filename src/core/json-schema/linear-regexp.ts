/**
 * `pattern` and `patternProperties` of schemas skillctl did not write (contracts from
 * `--contracts DIR`, a manifest's embedded schemas, a capability's tool schemas) are matched by
 * RE2 (re2js), whose matching time is linear in the input: a backtracking engine spent over a
 * minute on `^(a+)+$` and a 41-byte payload. A pattern RE2 cannot express (look-around,
 * back-references) is refused with a reason, never silently matched differently.
 *
 * Its own chunk in the CLI build (scripts/build.mjs), loaded on the first call: re2js costs
 * more to load than checking a manifest, and most schemas have no pattern that needs it.
 */
import { RE2JS } from 're2js';

/** A compiled pattern as ajv uses it (`code.regExp`). */
export interface LinearRegExp {
  test(s: string): boolean;
  toString(): string;
}

/** A back-reference outside a character class: `\1`..`\9` or `\k<name>` (translateRegExp would drop the `\` of `\k`). */
function backReference(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return `\\${next}`;
      i++;
    } else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
  }
  return undefined;
}

/** Why `pattern` cannot be matched in linear time, or undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  const ref = backReference(pattern);
  if (ref !== undefined) return `back-reference ${ref} needs a backtracking engine`;
  try {
    RE2JS.compile(RE2JS.translateRegExp(pattern));
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    return /\(\?[=!<]/.test(pattern) ? `look-around needs a backtracking engine (${message})` : message;
  }
}

/**
 * Compiles `pattern` for ajv's `code.regExp` (ajv passes the flags `u`). Throws, with the
 * reason, for a pattern RE2 cannot express; ajv reports it as a schema that does not compile.
 */
export function compileLinear(pattern: string, flags: string): LinearRegExp {
  const problem = linearPatternProblem(pattern);
  if (problem !== undefined) throw new Error(`pattern ${JSON.stringify(pattern)} is not supported: ${problem}; patterns are matched in linear time (RE2)`);
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  // ajv caches compiled patterns by toString(): it must differ per pattern.
  return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
}
