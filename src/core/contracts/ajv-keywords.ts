/**
 * skillctl's contract keywords as ajv keyword definitions. Each definition closes over
 * `context`, which the payload validator points at the exchange being checked.
 */
import { CONTRACT_KEYWORDS, type ContractKeyword, type KeywordContext } from './keywords/index.js';
import { KEYWORD_VALUE_SCHEMAS } from './meta.js';

interface DataContext {
  readonly instancePath: string;
}

type AjvValidate = ((arg: unknown, data: unknown, parentSchema?: unknown, cxt?: DataContext) => boolean) & { errors?: unknown[] };

export interface AjvKeyword {
  readonly keyword: string;
  readonly [k: string]: unknown;
}

export function ajvKeywords(context: () => KeywordContext): AjvKeyword[] {
  const all: readonly ContractKeyword<unknown>[] = CONTRACT_KEYWORDS;
  const defs: AjvKeyword[] = all.map((k) => {
    const validate: AjvValidate = (arg, data, parentSchema, cxt) => {
      const found = k.check({ value: data, arg, pointer: cxt?.instancePath ?? '', context: context() });
      validate.errors = found.map((v) => ({
        keyword: k.keyword,
        message: v.message,
        params: {},
        // ajv adds `schema` and `data` in verbose mode but not `parentSchema`, which names the rule's place.
        parentSchema,
        ...(v.pointer !== undefined ? { instancePath: v.pointer } : {}),
      }));
      return found.length === 0;
    };
    return { keyword: k.keyword, type: k.type, metaSchema: KEYWORD_VALUE_SCHEMAS[k.keyword], errors: true, validate };
  });
  // The contract's name: an annotation, checked when the contract is loaded.
  defs.push({ keyword: 'contract', schemaType: 'string', metaSchema: KEYWORD_VALUE_SCHEMAS.contract });
  return defs;
}
