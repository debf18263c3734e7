/**
 * Turns ajv's findings on a payload into contract violations: one code per rule, a JSON pointer
 * to the offending value (or to the missing or unknown field), and the rule's location in its
 * contract as the hint, e.g. `rule: ctr.output.v1#/$defs/thumbnail_text/maxWords = 6`.
 */
import type { ErrorObject } from 'ajv';
import { diag, type Diagnostic } from '../diagnostics.js';
import { childPointer, parsePointer } from '../manifest/index.js';
import { closest } from '../suggest.js';
import { ruleCode } from './rule-codes.js';
import { quote } from './text.js';

/** Where a schema object sits: the contract (or schema label) and its JSON pointer there. */
export type RuleLocator = (schemaObject: unknown) => { readonly contract: string; readonly pointer: string } | undefined;

function where(pointer: string): string {
  return pointer === '' ? 'the payload' : `\`${pointer}\``;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v;
}

function lastSegment(pointer: string): string {
  return parsePointer(pointer).pop() ?? '';
}

function ruleHint(e: ErrorObject, locate: RuleLocator): string {
  const at = locate(e.parentSchema);
  const path = at !== undefined ? `${at.contract}#${at.pointer}/${e.keyword}` : e.schemaPath;
  const value = e.schema === undefined || typeof e.schema === 'object' ? '' : ` = ${JSON.stringify(e.schema)}`;
  return `rule: ${path}${value}`;
}

/** One diagnostic for one ajv error, or undefined for errors that only restate another (`if`). */
function toDiagnostic(e: ErrorObject, locate: RuleLocator): Diagnostic | undefined {
  const hint = ruleHint(e, locate);
  const here = e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
      return undefined;
    case 'required':
    case 'dependentRequired': {
      const name = String(p.missingProperty);
      return diag('PAYLOAD_FIELD_MISSING', `missing field \`${name}\``, { pointer: childPointer(here, name), hint });
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(p.additionalProperty ?? p.unevaluatedProperty);
      const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      const known = Object.keys(props);
      return diag('PAYLOAD_FIELD_UNKNOWN', `field \`${name}\` is not in the contract`, {
        pointer: childPointer(here, name),
        hint: `${known.length > 0 ? `fields: ${known.join(', ')}; ` : ''}${hint}`,
      });
    }
    case 'type':
      return diag('PAYLOAD_TYPE', `${where(here)} must be ${String(p.type).replace(/,/g, ' or ')}, not ${jsonType(e.data)}`, { pointer: here, hint });
    case 'enum':
    case 'const': {
      const allowed = e.keyword === 'enum' ? (p.allowedValues as unknown[]) : [p.allowedValue];
      const seen = typeof e.data === 'string' ? quote(e.data) : e.data !== null && typeof e.data === 'object' ? `an ${jsonType(e.data)}` : JSON.stringify(e.data);
      return diag('PAYLOAD_ENUM', `${where(here)} is ${seen}; allowed: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`, { pointer: here, hint });
    }
    case 'minItems': {
      const n = (e.data as unknown[]).length;
      return diag('PAYLOAD_TOO_FEW_ITEMS', `${where(here)} has ${n} item${n === 1 ? '' : 's'}; at least ${String(p.limit)} required`, { pointer: here, hint });
    }
    case 'uniqueItems': {
      // ajv scans from the end: the later of the two indexes is the repetition.
      const [first, again] = [Math.min(Number(p.i), Number(p.j)), Math.max(Number(p.i), Number(p.j))];
      return diag('PAYLOAD_DUPLICATE_ITEM', `${where(childPointer(here, again))} repeats item ${first}`, { pointer: childPointer(here, again), hint });
    }
    case 'minLength':
      if (e.data === '') return diag('PAYLOAD_BLANK_STRING', `${where(here)} is empty`, { pointer: here, hint });
      break;
    default:
      break;
  }
  const code = ruleCode(e.keyword) ?? 'PAYLOAD_VALUE_INVALID';
  const value = code === 'PAYLOAD_OUT_OF_RANGE' ? ` is ${JSON.stringify(e.data)}; it` : '';
  return diag(code, `${where(here)}${value} ${e.message ?? 'is not valid'}`, { pointer: here, hint });
}

function tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}

/** Is `unknown` plausibly `missing` under another name: a near spelling, or one's words inside the other's? */
function renamed(unknown: string, missing: string): boolean {
  if (closest(unknown, [missing]) !== undefined) return true;
  const [a, b] = [tokens(unknown), tokens(missing)];
  const inside = (x: string[], y: string[]): boolean => x.length > 0 && x.every((t) => y.includes(t));
  return inside(a, b) || inside(b, a);
}

/**
 * C3: an unknown field next to a missing one it resembles (full_script beside a missing script)
 * is reported as a rename, the drift the contract's versioning exists to stop.
 */
function markRenames(found: Diagnostic[]): Diagnostic[] {
  const missing = found.filter((d) => d.code === 'PAYLOAD_FIELD_MISSING');
  const taken = new Set<Diagnostic>();
  return found.map((d) => {
    if (d.code !== 'PAYLOAD_FIELD_UNKNOWN' || d.pointer === undefined) return d;
    const parent = d.pointer.slice(0, d.pointer.lastIndexOf('/'));
    const name = lastSegment(d.pointer);
    const twin = missing.find((m) => !taken.has(m) && m.pointer?.slice(0, m.pointer.lastIndexOf('/')) === parent && renamed(name, lastSegment(m.pointer)));
    if (twin === undefined) return d;
    taken.add(twin);
    const was = lastSegment(twin.pointer ?? '');
    return diag('PAYLOAD_FIELD_RENAMED', `field \`${name}\` looks like the contract's \`${was}\` renamed`, {
      pointer: d.pointer,
      hint: `C3: field names never change; send \`${was}\`, or publish a new contract version that names it \`${name}\``,
    });
  });
}

/** Contract violations for ajv's errors (ajv run with `verbose`, so each error carries its schema). */
export function payloadErrors(errors: readonly ErrorObject[], locate: RuleLocator): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const d = toDiagnostic(e, locate);
    if (d === undefined) continue;
    const key = `${d.code}\u0000${d.pointer ?? ''}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  // A field both required and required-if is reported once, as missing.
  const missing = new Set(out.filter((d) => d.code === 'PAYLOAD_FIELD_MISSING').map((d) => d.pointer));
  return markRenames(out.filter((d) => d.code !== 'PAYLOAD_REQUIRED_IF' || !missing.has(d.pointer)));
}
