/**
 * `uniqueItems` in time linear in the array. ajv compares every item with every earlier one
 * unless the schema types its items as scalars: an array of 40,000 numbers took 19 s, the
 * 200,000 values a document may hold minutes, and the array is the payload's, the agent's input
 * (through `mcp`, on the thread that answers every session) or the skill's output, checked
 * against a schema that asks, in good faith, for distinct tags. Here each item gets a key equal
 * for values ajv's deep equality calls equal (object keys sorted, `-0` as `0`), and the array is
 * read once. The finding is the one ajv reports (test/core/json-schema/unique-items.test.ts).
 */
import type { ErrorObject } from 'ajv';

/** A text equal for two JSON values exactly when they are deeply equal. */
function itemKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(itemKey).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${itemKey(o[k])}`)
      .join(',')}}`;
  }
  // JSON.stringify(-0) is "0", as -0 === 0; a value JSON does not hold keeps a spelling of its own.
  return JSON.stringify(v) ?? `?${String(v)}`;
}

/** A JSON value's type as a schema's `type` names it (an integer is also a number). */
function isOfType(v: unknown, t: string): boolean {
  if (t === 'integer') return Number.isInteger(v);
  if (t === 'null') return v === null;
  if (t === 'array') return Array.isArray(v);
  if (t === 'object') return v !== null && typeof v === 'object' && !Array.isArray(v);
  return typeof v === t;
}

/**
 * The repetition ajv reports, or undefined. ajv reads an array two ways and this keeps both
 * answers: with items typed as scalars it goes from the end and stops at the first item equal
 * to a later one (`i`, and `j` the nearest later one), ignoring items of another type; otherwise
 * it stops at the last item equal to an earlier one (`i`, and `j` the nearest earlier one).
 */
export function repeatedItem(items: readonly unknown[], itemTypes: readonly string[] = []): { readonly i: number; readonly j: number } | undefined {
  const seen = new Map<string, number>();
  if (itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array')) {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (!itemTypes.some((t) => isOfType(item, t))) continue;
      const k = itemKey(item);
      const j = seen.get(k);
      if (j !== undefined) return { i, j };
      seen.set(k, i);
    }
    return undefined;
  }
  let found: { i: number; j: number } | undefined;
  items.forEach((item, i) => {
    const k = itemKey(item);
    const j = seen.get(k);
    if (j !== undefined) found = { i, j };
    seen.set(k, i);
  });
  return found;
}

/** The types ajv reads from a schema's `items` to choose how it compares. */
function itemTypesOf(parentSchema: unknown): string[] {
  const items = parentSchema !== null && typeof parentSchema === 'object' ? (parentSchema as { items?: unknown }).items : undefined;
  const type = items !== null && typeof items === 'object' ? (items as { type?: unknown }).type : undefined;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

type Validate = ((schema: unknown, data: unknown, parentSchema?: unknown) => boolean) & { errors?: Partial<ErrorObject>[] };

/** The keyword definition that replaces ajv's `uniqueItems`; `verbose` as the instance's. */
export function uniqueItemsKeyword(verbose: boolean): { keyword: string; type: string; schemaType: string; errors: boolean; validate: Validate } {
  const validate: Validate = (schema, data, parentSchema) => {
    if (schema !== true || !Array.isArray(data)) return true;
    const r = repeatedItem(data, itemTypesOf(parentSchema));
    if (r === undefined) return true;
    validate.errors = [
      {
        keyword: 'uniqueItems',
        params: { i: r.i, j: r.j },
        message: `must NOT have duplicate items (items ## ${r.j} and ${r.i} are identical)`,
        ...(verbose ? { parentSchema: parentSchema as ErrorObject['parentSchema'] } : {}),
      },
    ];
    return false;
  };
  return { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate };
}
