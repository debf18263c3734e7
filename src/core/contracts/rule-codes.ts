import type { Code } from '../diagnostics.js';
import { CONTRACT_KEYWORDS } from './keywords/index.js';

/** JSON Schema keywords that state a seed rule get that rule's code. */
const STANDARD: Readonly<Record<string, Code>> = {
  required: 'PAYLOAD_FIELD_MISSING',
  dependentRequired: 'PAYLOAD_FIELD_MISSING',
  type: 'PAYLOAD_TYPE',
  enum: 'PAYLOAD_ENUM',
  const: 'PAYLOAD_ENUM',
  minItems: 'PAYLOAD_TOO_FEW_ITEMS',
  minimum: 'PAYLOAD_OUT_OF_RANGE',
  maximum: 'PAYLOAD_OUT_OF_RANGE',
  exclusiveMinimum: 'PAYLOAD_OUT_OF_RANGE',
  exclusiveMaximum: 'PAYLOAD_OUT_OF_RANGE',
  uniqueItems: 'PAYLOAD_DUPLICATE_ITEM',
};

/** Other JSON Schema assertions: their violations are PAYLOAD_VALUE_INVALID. */
const OTHER = new Set(['minLength', 'maxLength', 'maxItems', 'pattern', 'format', 'multipleOf', 'minProperties', 'maxProperties', 'minContains', 'maxContains']);

const OWN: ReadonlyMap<string, Code> = new Map(CONTRACT_KEYWORDS.map((k) => [k.keyword, k.code]));

/** The code a violation of `keyword` is reported with, or undefined for keywords that assert nothing themselves. */
export function ruleCode(keyword: string): Code | undefined {
  return OWN.get(keyword) ?? STANDARD[keyword] ?? (OTHER.has(keyword) ? 'PAYLOAD_VALUE_INVALID' : undefined);
}
