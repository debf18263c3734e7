/**
 * The run's input: any JSON value (read with the hostile-document guards) that conforms to the
 * entrypoint's input_schema. Nothing of the skill runs on an input that does not.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { jcsDigest } from '../digest/index.js';
import { schemaFindings, type Compiled } from './check.js';
import { readJsonValue, refusalOf } from './json.js';

export type InputRead = { readonly value: unknown; readonly digest: string } | { readonly diagnostics: readonly Diagnostic[] };

export async function readInput(bytes: Uint8Array | undefined): Promise<InputRead> {
  const doc = await readJsonValue(bytes ?? Buffer.from('{}'));
  if ('errors' in doc) {
    // The reader's findings carry the document parser's codes (MANIFEST_PARSE_ERROR...); about the
    // input they are the input's own finding, at the reader's line and column.
    const found: readonly (Diagnostic | undefined)[] = doc.errors.length > 0 ? doc.errors : [undefined];
    return {
      diagnostics: found.map((d) =>
        diag('RUN_INPUT_INVALID', `the input ${refusalOf(d)}`, {
          file: 'input',
          ...(d?.line !== undefined ? { line: d.line, column: d.column ?? 1 } : {}),
          hint: d?.hint ?? 'give one JSON value, e.g. {"path": "README.md"}, in the file or on stdin with --input -',
        }),
      ),
    };
  }
  return { value: doc.data, digest: jcsDigest(doc.data) };
}

export type InputCheck = { readonly ok: true; readonly warnings: readonly Diagnostic[] } | { readonly ok: false; readonly status: 'input_invalid' | 'bundle_invalid'; readonly diagnostics: readonly Diagnostic[] };

/** The input against the compiled input_schema. */
export function checkInput(schema: Compiled, input: unknown): InputCheck {
  if ('error' in schema) return { ok: false, status: 'bundle_invalid', diagnostics: [{ ...schema.error, pointer: '/input_schema' }, diag('RUN_BUNDLE_INVALID', 'the input_schema cannot be compiled')] };
  const all = schema.check(input);
  const errors = all.filter((d) => d.severity === 'error');
  const warnings = schemaFindings(all.filter((d) => d.severity !== 'error'), 'input');
  if (errors.length === 0) return { ok: true, warnings };
  return {
    ok: false,
    status: 'input_invalid',
    diagnostics: [...warnings, diag('RUN_INPUT_INVALID', "the input does not conform to the entrypoint's input_schema", { file: 'input' }), ...schemaFindings(errors, 'input')],
  };
}
