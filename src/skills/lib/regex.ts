/**
 * search.ripgrep's pattern language: the part of regular-expression syntax that ripgrep's Rust
 * engine and the RE2 engine of the fallback (re2js, linear time, no catastrophic backtracking)
 * read the same way. Perl classes are pinned to ASCII in both (`\d` is [0-9], `\w` is
 * [0-9A-Za-z_], `\s` is ASCII space, `\b` an ASCII word boundary), since Rust makes them Unicode
 * and RE2 does not. Constructs one engine lacks (look-around, back-references, nested classes,
 * set operations, inline flags, `\Q`, `\Z`, `\C`) and newlines are refused.
 */

export type Translated = { readonly ok: true; readonly rust: string; readonly re2: string } | { readonly ok: false; readonly reason: string };

const SPACE = '\\t\\x0B\\f\\r ';
const CLASS_BODY: Record<string, string> = { d: '0-9', w: '0-9A-Za-z_', s: SPACE };
const OUTSIDE: Record<string, string> = { d: '[0-9]', D: '[^0-9]', w: '[0-9A-Za-z_]', W: '[^0-9A-Za-z_]', s: `[${SPACE}]`, S: `[^${SPACE}]` };
/** Characters both engines treat as syntax; escaping them gives the literal. */
const META = new Set('\\.+*?()|[]{}^$'.split(''));
/** Escapes with the same meaning in both engines. */
const SAME_ESCAPES = new Set(['a', 'f', 't', 'r', 'v', 'A', 'z']);

class Out {
  rust = '';
  re2 = '';
  both(s: string): void {
    this.rust += s;
    this.re2 += s;
  }
}

/** Reads `\p{..}`, `\pL`, `\x{..}` or `\xHH` starting at the letter; returns the text and next index. */
function braced(p: string, i: number, simple: number): [string, number] | undefined {
  if (p[i + 1] === '{') {
    const close = p.indexOf('}', i + 2);
    return close === -1 ? undefined : [p.slice(i, close + 1), close + 1];
  }
  const end = i + 1 + simple;
  return end > p.length ? undefined : [p.slice(i, end), end];
}

function escape(p: string, i: number, out: Out, inClass: boolean): number | string {
  const c = p[i];
  if (c === undefined) return 'the pattern ends with a lone backslash';
  if (c === 'p' || c === 'P') {
    const b = braced(p, i, 1);
    if (b === undefined) return `\\${c} needs a class name`;
    out.both(`\\${b[0]}`);
    return b[1];
  }
  if (c === 'x') {
    const b = braced(p, i, 2);
    if (b === undefined || !/^x(?:\{[0-9A-Fa-f]{1,6}\}|[0-9A-Fa-f]{2})$/.test(b[0])) return 'a \\x escape needs two hex digits or {hex}';
    out.both(`\\${b[0]}`);
    return b[1];
  }
  if (inClass && CLASS_BODY[c] !== undefined) {
    out.both(CLASS_BODY[c]);
    return i + 1;
  }
  if (!inClass && OUTSIDE[c] !== undefined) {
    out.both(OUTSIDE[c]);
    return i + 1;
  }
  if (!inClass && (c === 'b' || c === 'B')) {
    out.rust += `(?-u:\\${c})`;
    out.re2 += `\\${c}`;
    return i + 1;
  }
  if (SAME_ESCAPES.has(c) && !(inClass && (c === 'A' || c === 'z'))) {
    out.both(`\\${c}`);
    return i + 1;
  }
  if (c === 'n') return 'patterns match within one line: \\n is not allowed';
  if (/[A-Za-z0-9]/.test(c)) return `\\${c} is not supported`;
  // Escaped punctuation is the literal character.
  out.both(META.has(c) || inClass ? `\\${c}` : c);
  return i + 1;
}

function charClass(p: string, start: number, out: Out): number | string {
  let i = start + 1;
  out.both('[');
  if (p[i] === '^') {
    out.both('^');
    i++;
  }
  if (p[i] === ']') {
    out.both('\\]');
    i++;
  }
  while (i < p.length) {
    const c = p[i] as string;
    if (c === ']') {
      out.both(']');
      return i + 1;
    }
    if (c === '\\') {
      const next = p[i + 1];
      if (next === 'D' || next === 'W' || next === 'S' || next === 'b' || next === 'B') return `\\${next} is not supported inside [...]`;
      const r = escape(p, i + 1, out, true);
      if (typeof r === 'string') return r;
      i = r;
      continue;
    }
    if (c === '[') {
      const posix = /^\[:\^?[a-z]+:\]/.exec(p.slice(i));
      if (posix === null) return 'nested character classes are not supported';
      out.both(posix[0]);
      i += posix[0].length;
      continue;
    }
    if ((c === '&' || c === '-' || c === '~') && p[i + 1] === c) return `class set operation ${c}${c} is not supported`;
    if (c === '\n') return 'patterns match within one line: a newline is not allowed';
    out.both(c);
    i++;
  }
  return 'unclosed character class';
}

export function translatePattern(p: string): Translated {
  const out = new Out();
  let i = 0;
  while (i < p.length) {
    const c = p[i] as string;
    let next: number | string;
    if (c === '\\') next = escape(p, i + 1, out, false);
    else if (c === '[') next = charClass(p, i, out);
    else if (c === '(' && p[i + 1] === '?') {
      if (p[i + 2] === ':') {
        out.both('(?:');
        next = i + 3;
      } else if (p.startsWith('(?P<', i)) {
        out.both('(?P<');
        next = i + 4;
      } else next = 'only (?:...) and (?P<name>...) groups are supported (no look-around or inline flags)';
    } else if (c === '{') {
      const rep = /^\{\d{1,4}(?:,\d{0,4})?\}/.exec(p.slice(i));
      if (rep === null) next = 'a { must start a repetition such as {2} or {1,3}; escape a literal {';
      else {
        out.both(rep[0]);
        next = i + rep[0].length;
      }
    } else if (c === '\n' || c === '\r') next = 'patterns match within one line: a newline is not allowed';
    else {
      out.both(c);
      next = i + 1;
    }
    if (typeof next === 'string') return { ok: false, reason: next };
    i = next;
  }
  return { ok: true, rust: out.rust, re2: out.re2 };
}
