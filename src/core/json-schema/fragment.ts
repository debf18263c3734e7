/**
 * A `$ref`'s fragment is a JSON pointer written in a URI (RFC 6901 §6): percent-escapes first,
 * then `~1` and `~0`. A fragment comes from the document checked, so a malformed escape (`#/%`) is
 * input like any other: it names nothing. `decodeURIComponent` throws on one, which once ended
 * `validate`, `pack`, `run` and `registry publish` with an internal error.
 */

/** `text` with its percent-escapes decoded, or undefined when one is malformed. */
export function decodeFragment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** One segment of a fragment pointer, decoded and unescaped, or undefined when it is malformed. */
export function fragmentSegment(raw: string): string | undefined {
  return decodeFragment(raw)?.replace(/~1/g, '/').replace(/~0/g, '~');
}
