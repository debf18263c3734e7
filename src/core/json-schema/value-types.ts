/**
 * Words for a type finding: the type a value has (as its document wrote it: `1.0` in YAML is a
 * float, though JavaScript holds it as the integer 1), the type a schema wants, and the edit that
 * fixes the value. Shared by the manifest linter and the checks of payloads (run input, output).
 */

/** How a value was written, when its document is known: its format and its source text. */
export interface WrittenValue {
  readonly format: 'yaml' | 'json';
  /** The value's source text (a scalar's characters as written, quotes included). */
  readonly text?: string;
}

const ARTICLE: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** "a string", "an integer or a string": the types a schema wants, in words. */
export function wantedTypes(types: readonly string[]): string {
  return types.map((t) => ARTICLE[t] ?? t).join(' or ');
}

const MAX_SHOWN = 40;

/** The value itself, short, for a message: `1.0`, `"abc"`, `true`. Collections are not shown. */
function shown(v: unknown, written: WrittenValue | undefined): string | undefined {
  if (v !== null && typeof v === 'object') return undefined;
  // A number or boolean as written (`1.0`, `True`); a string always as JSON, so quotes and
  // control characters are visible and the message stays one line.
  const source = written?.text?.trim();
  const text = typeof v !== 'string' && source !== undefined && /^[\x21-\x7e]+$/.test(source) ? source : JSON.stringify(v);
  if (text === undefined) return undefined;
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** Is a number written with a fraction or an exponent (`1.0`, `2e3`), though it may hold an integer? */
function writtenAsFloat(written: WrittenValue | undefined): boolean {
  const t = written?.text;
  return t !== undefined && !/^[-+]?0[xo]/i.test(t) && /[.eE]/.test(t);
}

/** The type a value has, in words: "a float (1.0)", "an integer (1)", "a string ("x")", "an array". */
export function valueType(v: unknown, written?: WrittenValue): string {
  let kind: string;
  if (v === null) kind = 'null';
  else if (Array.isArray(v)) kind = 'an array';
  else if (typeof v === 'number') {
    if (!Number.isInteger(v) || writtenAsFloat(written)) kind = written?.format === 'yaml' ? 'a float' : 'a number';
    else kind = 'an integer';
  } else kind = ARTICLE[typeof v] ?? typeof v;
  const s = shown(v, written);
  return s !== undefined && kind !== 'null' ? `${kind} (${s})` : kind;
}

/**
 * The edit that fixes a value of the wrong type, as a hint: `field` is how the hint names it,
 * `example` a value of the wanted type as the user would write it (`"1.0.0"`).
 */
export function typeFix(field: string, want: readonly string[], v: unknown, written?: WrittenValue, example?: string): string | undefined {
  const such = example !== undefined ? ` such as ${example}` : '';
  const scalar = v === null || typeof v !== 'object';
  const isNumeric = typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
  const numberWanted = want.includes('integer') || want.includes('number');
  // Quoting turns a number or a boolean into the string meant, unless a number would do too.
  if (want.includes('string') && !numberWanted && scalar && v !== null) return `${field} must be a string${such}; quote it`;
  if (want.includes('string') && v === null) return `${field} has no value; write a string${such}`;
  if (want.includes('array') && typeof v === 'string') return `${field} must be a list; write it as [${JSON.stringify(v)}]`;
  if (numberWanted && isNumeric) return `${field} must be a number; remove the quotes`;
  if (want.includes('boolean') && (v === 'true' || v === 'false')) return `${field} must be true or false; remove the quotes`;
  if (want.includes('object')) return `${field} must be ${written?.format === 'yaml' ? 'a mapping of fields' : 'an object'}${such}`;
  if (example !== undefined) return `${field} must be ${wantedTypes(want)}${such}`;
  return undefined;
}
