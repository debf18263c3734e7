import { diag, type Diagnostic } from '../../diagnostics.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../../json-schema/index.js';
import { validate as meta202012 } from '../../../generated/meta-2020-12.validator.js';
import { validate as metaDraft07 } from '../../../generated/meta-draft-07.validator.js';
import type { JsonSchema } from '../model.js';
import type { Rule } from './rule.js';

const DIALECTS: Record<string, StandaloneValidator> = {
  'https://json-schema.org/draft/2020-12/schema': meta202012 as StandaloneValidator,
  'http://json-schema.org/draft-07/schema': metaDraft07 as StandaloneValidator,
};

function dialectOf(schema: JsonSchema): StandaloneValidator | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return DIALECTS['https://json-schema.org/draft/2020-12/schema'];
  if (typeof declared !== 'string') return undefined;
  return DIALECTS[declared.replace(/#$/, '')];
}

function resolves(root: unknown, ref: string): boolean {
  if (ref === '#') return true;
  let cur = root;
  for (const raw of ref.slice(2).split('/')) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(seg in cur)) return false;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return true;
}

/** Checks the meta-schema cannot make: regexes compile and local $refs resolve. */
function deepChecks(root: JsonSchema, base: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const stack: [unknown, string][] = [[root, base]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== 'object') continue;
    const obj = node as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const child = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k === 'pattern' && typeof v === 'string') {
        try {
          new RegExp(v, 'u');
        } catch {
          out.push(diag('EMBEDDED_SCHEMA_INVALID', `pattern ${JSON.stringify(v)} is not a valid regular expression`, { pointer: child }));
        }
      } else if (k === 'patternProperties' && v !== null && typeof v === 'object') {
        for (const p of Object.keys(v)) {
          try {
            new RegExp(p, 'u');
          } catch {
            out.push(diag('EMBEDDED_SCHEMA_INVALID', `patternProperties key ${JSON.stringify(p)} is not a valid regular expression`, { pointer: child }));
          }
        }
      } else if (k === '$ref' && typeof v === 'string' && v.startsWith('#') && !v.startsWith('#/') && v !== '#') {
        // "#name" is a plain-name fragment ($anchor); resolved by the engine at run time.
      } else if (k === '$ref' && typeof v === 'string' && (v === '#' || v.startsWith('#/')) && !resolves(root, v)) {
        out.push(diag('EMBEDDED_SCHEMA_INVALID', `$ref ${JSON.stringify(v)} points at nothing in this schema`, { pointer: child }));
      }
      if (v !== null && typeof v === 'object') stack.push([v, child]);
    }
  }
  return out;
}

export const embeddedSchemas: Rule = {
  name: 'embedded-schemas',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer } of entrypoints) {
      for (const field of ['input_schema', 'output_schema', 'error_schema'] as const) {
        const schema = ep[field];
        const at = `${pointer}/${field}`;
        const validate = dialectOf(schema);
        if (validate === undefined) {
          out.push(
            diag('EMBEDDED_SCHEMA_INVALID', `${field} declares an unsupported $schema ${JSON.stringify(schema.$schema)}`, {
              pointer: `${at}/$schema`,
              hint: 'use draft 2020-12 (the default when $schema is absent) or draft-07',
            }),
          );
          continue;
        }
        if (!validate(schema)) {
          const found = schemaErrorsToDiagnostics(validate.errors ?? [], schema, { schema: {} });
          for (const d of found) {
            out.push(
              diag('EMBEDDED_SCHEMA_INVALID', `${field}: ${d.message}`, {
                pointer: at + (d.pointer ?? ''),
                ...(d.hint !== undefined ? { hint: d.hint } : {}),
              }),
            );
          }
        }
        out.push(...deepChecks(schema, at));
      }
    }
    return out;
  },
};
