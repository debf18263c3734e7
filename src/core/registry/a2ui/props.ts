/**
 * Property checking shared by both A2UI dialects: each component or node type is described by a
 * table of its properties (kind and whether required), and one function checks an object against
 * such a table. Unknown properties are errors: a renderer drops what it does not know, so a
 * misspelt property is a silently missing part of the UI.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { pushAll } from '../../findings.js';

export type PropCheck = (value: unknown, pointer: string) => Diagnostic[];

export interface PropSpec {
  readonly required?: boolean;
  readonly check: PropCheck;
}

export type PropTable = Readonly<Record<string, PropSpec>>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function child(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function invalid(pointer: string, message: string, hint?: string): Diagnostic {
  return diag('UI_PROPERTY_INVALID', message, { pointer, ...(hint !== undefined ? { hint } : {}) });
}

/** A literal of one JSON type. */
export function literal(type: 'string' | 'number' | 'boolean'): PropCheck {
  return (v, p) => (typeof v === type && (type !== 'number' || Number.isFinite(v)) ? [] : [invalid(p, `must be a ${type}, not ${typeName(v)}`)]);
}

export const nonEmptyString: PropCheck = (v, p) =>
  typeof v === 'string' && v.trim() !== '' ? [] : [invalid(p, `must be a non-empty string, not ${typeof v === 'string' ? 'empty' : typeName(v)}`)];

export function oneOf(values: readonly string[]): PropCheck {
  return (v, p) => (typeof v === 'string' && values.includes(v) ? [] : [invalid(p, `is ${JSON.stringify(v)}; allowed: ${values.join(', ')}`)]);
}

export function arrayOf(item: PropCheck, min = 0): PropCheck {
  return (v, p) => {
    if (!Array.isArray(v)) return [invalid(p, `must be an array, not ${typeName(v)}`)];
    if (v.length < min) return [invalid(p, `must have at least ${min} item${min === 1 ? '' : 's'}`)];
    return v.flatMap((x, i) => item(x, child(p, i)));
  };
}

/** An object checked against a property table (used for nested shapes such as tabs or options). */
export function objectOf(table: PropTable, what: string): PropCheck {
  return (v, p) => (isObject(v) ? checkProps(v, table, p, what) : [invalid(p, `must be an object, not ${typeName(v)}`)]);
}

/**
 * Checks `obj` against `table`: required properties present, each known property valid, no
 * unknown property. `skip` names properties the caller checks itself (the discriminator).
 */
export function checkProps(obj: Record<string, unknown>, table: PropTable, pointer: string, what: string, skip: readonly string[] = []): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [name, spec] of Object.entries(table)) {
    if (spec.required === true && !(name in obj)) out.push(invalid(child(pointer, name), `${what} lacks required property \`${name}\``));
  }
  for (const [name, value] of Object.entries(obj)) {
    if (skip.includes(name)) continue;
    const spec = table[name];
    if (spec === undefined) {
      const guess = closest(name, Object.keys(table));
      out.push(
        invalid(child(pointer, name), `${what} has no property \`${name}\``, guess !== undefined ? `did you mean \`${guess}\`?` : `known: ${Object.keys(table).join(', ')}`),
      );
      continue;
    }
    pushAll(out, spec.check(value, child(pointer, name)));
  }
  return out;
}
