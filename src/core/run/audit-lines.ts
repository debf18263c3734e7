/**
 * The lines of an audit log, one at a time, never split into an array: 256 MiB of newlines is
 * 268 million lines, past the longest array V8 can make, and `split` aborted the process (a fatal
 * error, no diagnostic) in `audit verify` and `audit diff` alike. A log is read as a stream, so no
 * size of log is past what a verification reads (a hostile skill could grow its log past the
 * 256 MiB read whole before the stop of 2026-12-01); only a line is bounded.
 */
import { StringDecoder } from 'node:string_decoder';

/**
 * The longest line held (in UTF-16 units, which a record's bytes never number fewer than): far past any record skillctl writes (a record cuts its strings at 4096
 * characters and a manifest is at most 4 MiB), so a longer line is no record of skillctl's.
 */
export const MAX_AUDIT_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Called with each line (without its newline; null for one past MAX_AUDIT_LINE_BYTES, which is not
 * held), its 1-based number, and `torn` for a last line with no newline after it. Returns false to
 * stop, true to go on.
 */
export type LineVisitor = (line: string | null, n: number, torn: boolean) => boolean;

/** Visits the lines of `text` (a log already in memory). Returns the number of lines visited. */
export function eachLine(text: string, visit: LineVisitor): number {
  let n = 0;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    n++;
    if (!visit(text.slice(at, end), n, nl === -1)) break;
    at = end + 1;
  }
  return n;
}

/**
 * Visits the lines of a log as its bytes arrive; stops reading once `visit` returns false. Each
 * piece is decoded and cut as a string, as `eachLine` cuts a whole log: a line costs a search and a
 * slice, so 200 million empty lines take seconds, not minutes.
 */
export async function eachStreamedLine(chunks: AsyncIterable<Buffer | string>, visit: LineVisitor): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let n = 0;
  /** The start of a line not yet ended, or null inside a line past the bound (dropped up to its newline). */
  let carry: string | null = '';
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let at = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', at)) {
      if (carry !== null) {
        n++;
        const line = carry.length + nl - at > MAX_AUDIT_LINE_BYTES ? null : carry === '' ? text.slice(at, nl) : carry + text.slice(at, nl);
        if (!visit(line, n, false)) return n;
      }
      carry = '';
      at = nl + 1;
    }
    if (carry === null || at === text.length) continue;
    if (carry.length + text.length - at > MAX_AUDIT_LINE_BYTES) {
      n++;
      if (!visit(null, n, false)) return n;
      carry = null;
    } else carry += text.slice(at);
  }
  const last = (carry ?? '') + decoder.end();
  if (carry !== null && last !== '') visit(last, ++n, true);
  return n;
}
