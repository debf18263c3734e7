/**
 * Bounded text: decoding a prefix of a larger content without splitting a character, and
 * cutting UTF-8 bytes on a character boundary. Encodings are the WHATWG Encoding Standard's
 * (what TextDecoder knows); a byte-order mark overrides the label, as the standard's decode does.
 */

/** The canonical name of an encoding label (`latin1` -> `windows-1252`), or undefined if unknown. */
export function canonicalEncoding(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

export type Decoded =
  | { readonly ok: true; readonly text: string; readonly bytes: number; readonly encoding: string }
  | { readonly ok: false; readonly encoding: string };

function tryDecode(bytes: Uint8Array, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes `bytes` as `encoding` (a canonical name). When `more` is true the bytes are only the
 * start of the content, so an incomplete character at the end is left out: up to three bytes
 * are dropped until the rest decodes. `bytes` in the result counts the bytes decoded.
 */
export function decodePrefix(bytes: Uint8Array, encoding: string, more: boolean): Decoded {
  const enc = bomEncoding(bytes) ?? encoding;
  const maxCut = more ? Math.min(3, bytes.length) : 0;
  for (let cut = 0; cut <= maxCut; cut++) {
    const text = tryDecode(bytes.subarray(0, bytes.length - cut), enc);
    if (text !== undefined) return { ok: true, text, bytes: bytes.length - cut, encoding: enc };
  }
  return { ok: false, encoding: enc };
}

/** True when decoded text looks binary: it holds a NUL character. */
export function looksBinary(text: string): boolean {
  return text.includes('\u0000');
}

/** The longest prefix of `buf` of at most `max` bytes that does not split a UTF-8 sequence. */
export function utf8Prefix(buf: Uint8Array, max: number): Uint8Array {
  if (buf.length <= max) return buf;
  let end = max;
  // Back off over continuation bytes (10xxxxxx) to the lead byte of the character cut in two.
  for (let i = 0; i < 3 && end > 0 && ((buf[end] as number) & 0xc0) === 0x80; i++) end--;
  return buf.subarray(0, end);
}

/** `buf` without an incomplete UTF-8 sequence at its end (for output cut at a byte bound). */
export function dropPartialUtf8(buf: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const b = buf[buf.length - back] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.subarray(0, buf.length - back) : buf;
  }
  return buf;
}

/** Decodes UTF-8 leniently (invalid bytes become U+FFFD), as process output and diffs need. */
export function lenientUtf8(buf: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(buf);
}

/** A string cut to at most `max` UTF-8 bytes on a character boundary. */
export function cutUtf8(text: string, max: number): { readonly text: string; readonly truncated: boolean } {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return { text, truncated: false };
  return { text: lenientUtf8(utf8Prefix(buf, max)), truncated: true };
}
