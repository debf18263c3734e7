import type { Diagnostic } from '../../diagnostics.js';
import { checkSchemaDocument } from '../../json-schema/index.js';
import type { Rule } from './rule.js';
import { pushAll } from '../../findings.js';

export const embeddedSchemas: Rule = {
  name: 'embedded-schemas',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer } of entrypoints) {
      for (const field of ['input_schema', 'output_schema', 'error_schema'] as const) {
        pushAll(out, checkSchemaDocument(ep[field], { pointer: `${pointer}/${field}`, label: field, code: 'EMBEDDED_SCHEMA_INVALID' }));
      }
    }
    return out;
  },
};
