/**
 * Where a JSON text first breaks the grammar (RFC 8259), and why, in skillctl's own words. The
 * message of JSON.parse is not used: its wording changes between Node versions, and newer ones
 * quote the text around the error, line breaks and all, into a message meant to be one line.
 */

export interface JsonSyntaxProblem {
  /** One line, the same on every Node version: what was found, and what was expected there. */
  readonly reason: string;
  readonly line: number;
  readonly column: number;
}

class Stop {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {}
}

/** A character for a message: `'p'` when printable ASCII, else its code point (U+000A). */
function shown(c: string): string {
  return /^[\x21-\x7e]$/.test(c) ? `'${c}'` : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function positionOf(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/** A recursive-descent reader that only finds the first error (a stack overflow is caught below). */
class Reader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i] as string)) this.i++;
  }

  fail(expected: string): never {
    if (this.i >= this.s.length) throw new Stop(this.i, `the document ends where ${expected} was expected`);
    throw new Stop(this.i, `unexpected ${shown(this.s[this.i] as string)} where ${expected} was expected`);
  }

  value(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) this.number();
    else if (!['true', 'false', 'null'].some((w) => this.word(w))) this.fail('a value');
  }

  word(w: string): boolean {
    if (!this.s.startsWith(w, this.i)) return false;
    this.i += w.length;
    return true;
  }

  object(): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return void this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('a property name in double quotes');
      this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail("':'");
      this.i++;
      this.value();
      this.ws();
      if (this.s[this.i] === '}') return void this.i++;
      if (this.s[this.i] !== ',') this.fail("',' or '}'");
      this.i++;
    }
  }

  array(): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return void this.i++;
    for (;;) {
      this.value();
      this.ws();
      if (this.s[this.i] === ']') return void this.i++;
      if (this.s[this.i] !== ',') this.fail("',' or ']'");
      this.i++;
    }
  }

  string(): void {
    const open = this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === '"') return void this.i++;
      if (c < ' ') throw new Stop(this.i, `a control character (${shown(c)}) in a string must be escaped`);
      if (c === '\\') {
        const e = this.s[this.i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) this.i += 6;
        else throw new Stop(this.i, 'a string has an invalid escape');
      } else this.i++;
    }
    throw new Stop(open, 'a string is not closed');
  }

  number(): void {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 1024));
    if (m === null || m[0] === '-') throw new Stop(this.i, 'a number is malformed');
    this.i += m[0].length;
    const next = this.s[this.i];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) throw new Stop(this.i, 'a number is malformed');
  }
}

/** The first syntax error of `text`, or undefined when it is one JSON value. */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const r = new Reader(text);
  try {
    r.ws();
    if (r.i >= text.length) return { reason: 'the document is empty', line: 1, column: 1 };
    r.value();
    r.ws();
    if (r.i < text.length) throw new Stop(r.i, `unexpected ${shown(text[r.i] as string)} after the JSON value (one value per document)`);
    return undefined;
  } catch (err) {
    // Nesting deeper than the stack: a guard refuses such a document anyway; say so, do not crash.
    if (err instanceof RangeError) return { reason: 'it nests too deeply to be read', line: 1, column: 1 };
    if (!(err instanceof Stop)) throw err;
    return { reason: err.reason, ...positionOf(text, err.at) };
  }
}
