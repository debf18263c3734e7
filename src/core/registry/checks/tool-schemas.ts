import { withFile, type Diagnostic } from '../../diagnostics.js';
import { checkSchemaDocument } from '../../json-schema/index.js';
import { bundlePath } from '../bundle.js';
import type { Check } from './check.js';
import { pushAll } from '../../findings.js';

/** Each args_schema and result_schema must be a JSON Schema an agent and a validator can use. */
export const toolSchemas: Check = {
  name: 'tool-schemas',
  check({ bundle }) {
    const out: Diagnostic[] = [];
    for (const { value: tool, pointer } of bundle.tools) {
      for (const field of ['args_schema', 'result_schema'] as const) {
        pushAll(out, checkSchemaDocument(tool[field], { pointer: `${pointer}/${field}`, label: `${tool.name} ${field}`, code: 'TOOL_SCHEMA_INVALID' }));
      }
    }
    return withFile(out, bundlePath(bundle.label, 'tools.json'));
  },
};
