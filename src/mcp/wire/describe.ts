/**
 * One readable sentence for a value that failed a schema: the SDK's own answer is zod's issue list
 * as multi-line JSON, which an agent (or a person reading its transcript) cannot act on.
 */
import type { z } from 'zod';
import { formatPath } from './json-keys.js';

/** "a string", "an object", "null", "an array": what a JSON value is, for a sentence. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a fractional number';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'missing' : `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: 'null',
};

function at(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

/** The first issue of a failed parse of `value`, as "<path> must be <what>, not <what it is>". */
export function describeIssue(error: z.ZodError, value: unknown): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'the message does not have the form its method requires';
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
  const where = formatPath(path);
  const actual = at(value, path);
  if (issue.code === 'invalid_type') {
    const want = EXPECTED[issue.expected] ?? issue.expected;
    return actual === undefined ? `${where} is required (${want})` : `${where} must be ${want}, not ${kindOf(actual)}`;
  }
  if (issue.code === 'invalid_value' && 'values' in issue) return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'unrecognized_keys') return `${where} has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_union') return `${where} is not valid (${kindOf(actual)})`;
  return `${where}: ${issue.message}`;
}
