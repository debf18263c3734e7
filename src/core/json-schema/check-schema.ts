/**
 * Checks that a value embedded in a document is itself a usable JSON Schema: it declares a
 * supported dialect, passes that dialect's meta-schema, its regexes compile and its local
 * `$ref`s resolve. Used for a manifest's input/output/error schemas and a capability tool's
 * args/result schemas; the caller picks the code its findings carry.
 */
import { diag, type Code, type Diagnostic } from '../diagnostics.js';
import { validate as meta202012 } from '../../generated/meta-2020-12.validator.js';
import { validate as metaDraft07 } from '../../generated/meta-draft-07.validator.js';
import type { StandaloneValidator } from './standalone.js';
import { fragmentSegment } from './fragment.js';
import { linearPatternProblem } from './linear-regexp.js';
import { schemaErrorsToDiagnostics } from './to-diagnostics.js';
import { pushAll } from '../findings.js';

const DIALECTS: Record<string, StandaloneValidator> = {
  'https://json-schema.org/draft/2020-12/schema': meta202012 as StandaloneValidator,
  'http://json-schema.org/draft-07/schema': metaDraft07 as StandaloneValidator,
};

function dialectOf(schema: Record<string, unknown>): StandaloneValidator | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return DIALECTS['https://json-schema.org/draft/2020-12/schema'];
  if (typeof declared !== 'string') return undefined;
  return DIALECTS[declared.replace(/#$/, '')];
}

function resolves(root: unknown, ref: string): boolean {
  if (ref === '#') return true;
  let cur = root;
  for (const raw of ref.slice(2).split('/')) {
    const seg = fragmentSegment(raw);
    if (seg === undefined || cur === null || typeof cur !== 'object' || !(seg in cur)) return false;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return true;
}

/**
 * Syntax RE2 may refuse, or read otherwise: `(?` groups (look-around, named groups), escapes of
 * back-references, classes and code points, counts of three digits or more. A pattern without
 * any is plain syntax both engines read alike, and is not worth loading RE2 for.
 */
const MAYBE_NOT_LINEAR = /\(\?(?!:)|\\[0-9kpPuc]|\{\d{3,}/;

/** Why `pattern` is no usable regular expression (JavaScript's syntax, matched in linear time by RE2), or undefined. */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  if (!MAYBE_NOT_LINEAR.test(pattern)) return undefined;
  const problem = linearPatternProblem(pattern);
  return problem === undefined ? undefined : `cannot be matched in linear time: ${problem}`;
}

/** Checks the meta-schema cannot make: regexes compile and local $refs resolve. */
function deepChecks(root: Record<string, unknown>, base: string, code: Code): Diagnostic[] {
  const out: Diagnostic[] = [];
  const stack: [unknown, string][] = [[root, base]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== 'object') continue;
    const obj = node as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const child = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k === 'pattern' && typeof v === 'string') {
        const problem = patternProblem(v);
        if (problem !== undefined) out.push(diag(code, `pattern ${JSON.stringify(v)} ${problem}`, { pointer: child }));
      } else if (k === 'patternProperties' && v !== null && typeof v === 'object') {
        for (const p of Object.keys(v)) {
          const problem = patternProblem(p);
          if (problem !== undefined) out.push(diag(code, `patternProperties key ${JSON.stringify(p)} ${problem}`, { pointer: child }));
        }
      } else if (k === '$ref' && typeof v === 'string' && v.startsWith('#') && !v.startsWith('#/') && v !== '#') {
        // "#name" is a plain-name fragment ($anchor); resolved by the engine at run time.
      } else if (k === '$ref' && typeof v === 'string' && (v === '#' || v.startsWith('#/')) && !resolves(root, v)) {
        out.push(diag(code, `$ref ${JSON.stringify(v)} points at nothing in this schema`, { pointer: child }));
      }
      if (v !== null && typeof v === 'object') stack.push([v, child]);
    }
  }
  return out;
}

export interface SchemaDocumentOptions {
  /** Pointer of the schema inside its document; findings point below it. */
  readonly pointer: string;
  /** What the schema is called in messages, e.g. `input_schema`. */
  readonly label: string;
  /** The code every finding carries. */
  readonly code: Code;
}

/** Findings that make `schema` unusable as a JSON Schema (empty when it is fine). */
export function checkSchemaDocument(schema: Record<string, unknown>, opts: SchemaDocumentOptions): Diagnostic[] {
  const { pointer, label, code } = opts;
  const validate = dialectOf(schema);
  if (validate === undefined) {
    return [
      diag(code, `${label} declares an unsupported $schema ${JSON.stringify(schema.$schema)}`, {
        pointer: `${pointer}/$schema`,
        hint: 'use draft 2020-12 (the default when $schema is absent) or draft-07',
      }),
    ];
  }
  const out: Diagnostic[] = [];
  if (!validate(schema)) {
    for (const d of schemaErrorsToDiagnostics(validate.errors ?? [], schema, { schema: {} })) {
      out.push(diag(code, `${label}: ${d.message}`, { pointer: pointer + (d.pointer ?? ''), ...(d.hint !== undefined ? { hint: d.hint } : {}) }));
    }
  }
  pushAll(out, deepChecks(schema, pointer, code));
  return out;
}
