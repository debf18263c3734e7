/**
 * Turns ajv errors into diagnostics with a code per kind of failure, a JSON pointer to the
 * offending value (or to the missing or unknown field itself), and a message in the user's terms.
 */
import { diag, type Code, type Diagnostic } from '../diagnostics.js';
import { closest } from '../suggest.js';
import { fragmentSegment } from './fragment.js';
import type { ErrorObject } from './standalone.js';
import { typeFix, valueType, wantedTypes, type WrittenValue } from './value-types.js';

export interface SchemaDiagnosticOptions {
  /** The JSON Schema the errors came from, to name the allowed fields in hints. */
  readonly schema: Record<string, unknown>;
  /** Replace the code for an unknown field under a given parent pointer (e.g. permission scopes). */
  readonly unknownFieldCode?: (parentPointer: string) => Code | undefined;
  /** How the value at a pointer was written (format, source text), to name its type as the user sees it. */
  readonly written?: (pointer: string) => WrittenValue | undefined;
  /** A value of the right type for the field at a pointer, as the user would write it, for hints. */
  readonly example?: (pointer: string) => string | undefined;
}

function escapeSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Resolves `#/a/b` (as in ajv's schemaPath) inside the root schema. */
function schemaAt(root: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let cur: unknown = root;
  for (const raw of path.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    const seg = fragmentSegment(raw);
    if (seg === undefined || cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>) : undefined;
}

function valueAt(data: unknown, pointer: string): unknown {
  let cur = data;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** How a message names the field at `pointer`: `skill_version`, `args_fingerprint_fields[0]`. */
function fieldLabel(pointer: string): string | undefined {
  const segs = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = segs.pop();
  if (last === undefined) return undefined;
  const parent = segs[segs.length - 1];
  return /^(0|[1-9][0-9]*)$/.test(last) && parent !== undefined ? `${parent}[${last}]` : last;
}

function fieldName(pointer: string, whole = 'the document'): string {
  const label = fieldLabel(pointer);
  return label === undefined ? whole : `\`${label}\``;
}

/** The types a `type` error wants, from its params (`string`, `["string","array"]`, or `a,b` after collapsing). */
function wanted(e: ErrorObject): string[] {
  const t = (e.params as { type: string | string[] }).type;
  return [...new Set((Array.isArray(t) ? t : String(t).split(',')).map((x) => x.trim()))];
}

/**
 * anyOf/oneOf failures come with one error per branch. Keep the errors of branches that accept
 * the value's type (those say what is actually wrong); when every branch wanted another type,
 * keep one summary that names all the types.
 */
function collapseAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const drop = new Set<ErrorObject>();
  const replace = new Map<ErrorObject, ErrorObject>();
  errors.forEach((alt, i) => {
    if (alt.keyword !== 'anyOf' && alt.keyword !== 'oneOf') return;
    // ajv appends each branch's errors, then the anyOf error itself; branches may go through a
    // $ref, so their schemaPath does not share a prefix: the contiguous run at or below the
    // same instance path is what the branches reported.
    const branches: ErrorObject[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const e = errors[j] as ErrorObject;
      if (drop.has(e) || !(e.instancePath === alt.instancePath || e.instancePath.startsWith(alt.instancePath + '/'))) break;
      branches.push(e);
    }
    const typeErrors = branches.filter((e) => e.keyword === 'type' && e.instancePath === alt.instancePath);
    const rest = branches.filter((e) => !typeErrors.includes(e));
    for (const e of typeErrors) drop.add(e);
    if (rest.length > 0) drop.add(alt);
    else if (typeErrors.length > 0) {
      const types = typeErrors.map((e) => String((e.params as { type: unknown }).type)).join(',');
      replace.set(alt, { ...alt, keyword: 'type', params: { type: types } });
    }
  });
  return errors.filter((e) => !drop.has(e)).map((e) => replace.get(e) ?? e);
}

export function schemaErrorsToDiagnostics(
  errors: readonly ErrorObject[],
  data: unknown,
  options: SchemaDiagnosticOptions,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of collapseAlternatives(errors)) {
    const here = e.instancePath;
    // With ajv's `verbose`, each error carries the schema object holding the failed keyword;
    // schemaPath alone is relative to the innermost $ref target, so it cannot find it.
    const parent =
      (e.parentSchema as Record<string, unknown> | undefined) ?? schemaAt(options.schema, e.schemaPath.replace(/\/[^/]+$/, ''));
    const description = typeof parent?.description === 'string' ? parent.description : undefined;
    let d: Diagnostic;
    if (e.propertyName !== undefined && e.keyword !== 'propertyNames') {
      // A failing property *name* (propertyNames): point at the key, not at the whole object.
      d = diag('SCHEMA_FORMAT', `key \`${e.propertyName}\` does not have the required form`, {
        pointer: `${here}/${escapeSegment(e.propertyName)}`,
      });
      out.push(d);
      continue;
    }
    switch (e.keyword) {
      case 'required': {
        const name = String((e.params as { missingProperty: string }).missingProperty);
        d = diag('SCHEMA_REQUIRED', `missing required field \`${name}\``, { pointer: `${here}/${escapeSegment(name)}` });
        break;
      }
      case 'additionalProperties': {
        const name = String((e.params as { additionalProperty: string }).additionalProperty);
        const known = Object.keys((parent?.properties as Record<string, unknown> | undefined) ?? {});
        const guess = closest(name, known);
        const code = options.unknownFieldCode?.(here) ?? 'SCHEMA_UNKNOWN_FIELD';
        d = diag(code, `unknown field \`${name}\``, {
          pointer: `${here}/${escapeSegment(name)}`,
          hint: guess !== undefined ? `did you mean \`${guess}\`?` : `allowed here: ${known.join(', ')}`,
        });
        break;
      }
      case 'type': {
        const want = wanted(e);
        const v = valueAt(data, here);
        const written = options.written?.(here);
        // The hint is a fix or nothing: a schema's description says what a field is, not how to mend it.
        const fix = typeFix(fieldLabel(here) ?? 'the document', want, v, written, options.example?.(here));
        d = diag('SCHEMA_TYPE', `${fieldName(here)} must be ${wantedTypes(want)}, not ${valueType(v, written)}`, { pointer: here, ...(fix !== undefined ? { hint: fix } : {}) });
        break;
      }
      case 'enum':
      case 'const': {
        const allowed =
          e.keyword === 'enum'
            ? ((e.params as { allowedValues: unknown[] }).allowedValues ?? [])
            : [(e.params as { allowedValue: unknown }).allowedValue];
        d = diag('SCHEMA_ENUM', `${fieldName(here)} is ${JSON.stringify(valueAt(data, here))}; allowed: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`, {
          pointer: here,
        });
        break;
      }
      case 'pattern':
      case 'format': {
        const extra = e.keyword === 'format' ? ` (${String((e.params as { format: string }).format)})` : '';
        d = diag('SCHEMA_FORMAT', `${fieldName(here)} ${JSON.stringify(valueAt(data, here))} does not have the required form${extra}`, {
          pointer: here,
          ...(description !== undefined ? { hint: description } : {}),
        });
        break;
      }
      case 'propertyNames':
        // ajv reports the failing name through a nested error too; that one carries the detail.
        continue;
      default: {
        const v = valueAt(data, here);
        const empty = (e.keyword === 'minLength' || e.keyword === 'minItems') && (v === '' || (Array.isArray(v) && v.length === 0));
        const message = empty ? `${fieldName(here)} must not be empty` : `${fieldName(here)} ${e.message ?? 'is not valid'}`;
        d = diag('SCHEMA_CONSTRAINT', message, { pointer: here, ...(description !== undefined ? { hint: description } : {}) });
      }
    }
    const key = `${d.code}\u0000${d.pointer ?? ''}\u0000${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

export interface ValueContext {
  /** The value that was checked, to name the type of what is wrong. */
  readonly data?: unknown;
  /** The schema it was checked against, to name the properties it allows. */
  readonly schema?: unknown;
  /** How a message names the whole value (`the input`); default `the value`. */
  readonly whole?: string;
}

/** The schema a value-check error's keyword belongs to, when its path can be followed in `root`. */
function keywordParent(root: unknown, e: ErrorObject): Record<string, unknown> | undefined {
  if (e.parentSchema !== undefined) return e.parentSchema as Record<string, unknown>;
  return root !== null && typeof root === 'object' ? schemaAt(root as Record<string, unknown>, e.schemaPath.replace(/\/[^/]+$/, '')) : undefined;
}

/** "a string": the type a property's schema declares, when it declares one. */
function declaredType(parent: Record<string, unknown> | undefined, name: string): string | undefined {
  const props = parent?.properties;
  const prop = props !== null && typeof props === 'object' ? (props as Record<string, unknown>)[name] : undefined;
  const t = prop !== null && typeof prop === 'object' ? (prop as { type?: unknown }).type : undefined;
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
  return list.length > 0 ? wantedTypes(list) : undefined;
}

/**
 * Turns ajv's findings on a *value* (a run's input, a skill's output) into diagnostics pointing
 * into that value, each naming the field, what was expected and what is there.
 */
export function valueErrors(errors: readonly ErrorObject[], ctx: ValueContext = {}): Diagnostic[] {
  const whole = ctx.whole ?? 'the value';
  return collapseAlternatives(errors).map((e) => {
    const here = e.instancePath;
    const parent = keywordParent(ctx.schema, e);
    const name = (p: Record<string, unknown>, key: string): string => String(p[key]);
    switch (e.keyword) {
      case 'required': {
        const missing = name(e.params, 'missingProperty');
        const type = declaredType(parent, missing);
        return diag('SCHEMA_VALUE_INVALID', `missing required property \`${missing}\``, {
          pointer: `${here}/${escapeSegment(missing)}`,
          hint: `add "${missing}"${type !== undefined ? ` (${type})` : ''}`,
        });
      }
      case 'additionalProperties': {
        const extra = name(e.params, 'additionalProperty');
        const props = parent?.properties;
        const known = props !== null && typeof props === 'object' ? Object.keys(props) : [];
        const guess = closest(extra, known);
        const hint = guess !== undefined ? `did you mean \`${guess}\`?` : known.length > 0 ? `allowed here: ${known.join(', ')}` : 'no other properties are allowed here';
        return diag('SCHEMA_VALUE_INVALID', `property \`${extra}\` is not allowed`, { pointer: `${here}/${escapeSegment(extra)}`, hint });
      }
      case 'type': {
        const want = wanted(e);
        const v = ctx.data !== undefined ? valueAt(ctx.data, here) : undefined;
        const label = fieldLabel(here) ?? whole;
        const message = `${fieldName(here, whole)} must be ${wantedTypes(want)}${ctx.data !== undefined ? `, not ${valueType(v, { format: 'json' })}` : ''}`;
        const fix = ctx.data !== undefined ? typeFix(label, want, v, { format: 'json' }) : undefined;
        return diag('SCHEMA_VALUE_INVALID', message, { pointer: here, ...(fix !== undefined ? { hint: fix } : {}) });
      }
      default:
        return diag('SCHEMA_VALUE_INVALID', `${fieldName(here, whole)} ${e.message ?? 'is not valid'}`, { pointer: here, hint: `schema rule: ${e.schemaPath}` });
    }
  });
}
