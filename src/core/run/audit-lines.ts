/**
 * The lines of an audit log, one at a time. A log is read whole (bounded by its readers), but is
 * never split into an array: 256 MiB of newlines is 268 million lines, past the longest array V8
 * can make, and `split` aborted the process (a fatal error, no diagnostic) in `audit verify` and
 * `audit diff` alike.
 */

/**
 * Calls `visit` with each line (without its newline) and its 1-based number, `torn` for a last
 * line with no newline after it, until `visit` returns false (true goes on). Returns the number of lines visited.
 */
export function eachLine(text: string, visit: (line: string, n: number, torn: boolean) => boolean): number {
  let n = 0;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    n++;
    if (visit(text.slice(at, end), n, nl === -1) === false) break;
    at = end + 1;
  }
  return n;
}
