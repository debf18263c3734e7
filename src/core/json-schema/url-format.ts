/**
 * ajv-formats' `url` format, decided in time linear in the string. Its regular expression
 * (`^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:<host>)(?::\d{2,5})?(?:\/[^\s]*)?$`) backtracks over
 * every way to split the text before the host into a user and a password, and over every `@`
 * that could end them: `http://` and 120,000 characters of `::` held the process 53 s, a
 * 4 MiB payload hours. The format is matched by V8's backtracking engine, not RE2 (its look-aheads
 * refuse private addresses), and the string is the payload's, the agent's input or the skill's
 * output: a schema asking for a `url`, written in good faith, let them hang the host (an MCP
 * server, and every session it answers).
 *
 * The same language, split by hand. `\S+(?::\S*)?` is any non-empty run of non-space (the `:` and
 * the password are non-space too), so the user part is "none" or "text without space, then `@`".
 * The host holds no `@`, `:` or `/`, and what follows it starts with `:` or `/` or is nothing,
 * so a host starting at s ends at the first `:` or `/` after s. A start is the beginning or one
 * past an `@`; only a start whose host holds no `@` can match, and those hosts do not overlap,
 * so each character is looked at by the host's expression once at most. The tail after the host
 * is decided from two precomputed positions. test/core/json-schema/url-format.test.ts holds the
 * two to the same answer on generated strings.
 */

const SCHEME = /^(?:https?|ftp):\/\//i;

/** ajv-formats' host alternatives, anchored (the flags are the original's: `i` and `u`). */
const HOST =
  /^(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\.(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))$/iu;

/** The port `:\d{2,5}` at the start of what follows the host; what stays after it must be a path or nothing. */
const PORT = /^:\d{2,5}(?=\/|$)/u;

/** `\s` as the original reads it (flag `u`). */
const SPACE = /\s/gu;

/** First and last index of a space (`\s`) in `s`; -1 and -1 when there is none. */
function spaces(s: string): readonly [number, number] {
  let first = -1;
  let last = -1;
  SPACE.lastIndex = 0;
  for (let m = SPACE.exec(s); m !== null; m = SPACE.exec(s)) {
    if (first === -1) first = m.index;
    last = m.index;
  }
  return [first, last];
}

export function isUrl(str: string): boolean {
  const scheme = SCHEME.exec(str);
  if (scheme === null) return false;
  const rest = str.slice(scheme[0].length);
  const n = rest.length;
  const [firstSpace, lastSpace] = spaces(rest);
  // For each index, the next `:` or `/` and the next `@` at or after it (n when none).
  const nextEnd = new Int32Array(n + 1).fill(n);
  const nextAt = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const c = rest.charCodeAt(i);
    nextEnd[i] = c === 0x3a || c === 0x2f ? i : (nextEnd[i + 1] as number);
    nextAt[i] = c === 0x40 ? i : (nextAt[i + 1] as number);
  }
  // What follows the host: nothing, a path (`/` and no space), or a port and then one of those.
  const tailOk = (e: number): boolean => {
    if (e === n) return true;
    let p = e;
    if (rest.charCodeAt(p) === 0x3a) {
      const port = PORT.exec(rest.slice(p, p + 7));
      if (port === null) return false;
      p += port[0].length;
      if (p === n) return true;
    }
    return rest.charCodeAt(p) === 0x2f && p > lastSpace;
  };
  const hostAt = (s: number): boolean => {
    const e = nextEnd[s] as number;
    return (nextAt[s] as number) >= e && tailOk(e) && HOST.test(rest.slice(s, e));
  };
  if (hostAt(0)) return true;
  // A user part: at least one character before the `@`, none of them a space.
  for (let i = nextAt[1] ?? n; i < n; i = nextAt[i + 1] as number) {
    if (firstSpace !== -1 && firstSpace < i) return false;
    if (hostAt(i + 1)) return true;
  }
  return false;
}
