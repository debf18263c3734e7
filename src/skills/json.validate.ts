/**
 * json.validate: validates a JSON document (given as a string) against a JSON Schema, draft
 * 2020-12 or draft-07 (by `$schema`), with ajv and ajv-formats. Errors carry RFC 6901 pointers
 * into the document. A schema that cannot be compiled is an error outcome, never a crash.
 * `pattern` runs on re2js, a linear-time engine, so no schema can hang the process with a
 * catastrophically backtracking expression. docs/skills/json.validate.md.
 */
import { compileSchema, type RegExpEngine } from '../core/json-schema/index.js';
import type { BuiltinSkill } from '../core/run/index.js';
import { fail, ok, RequestError, runSkill, str } from './lib/outcome.js';

/** Largest document accepted, in UTF-16 code units of the `json` string. */
export const MAX_JSON_CHARS = 4 * 1024 * 1024;
/** At most this many errors are listed; `valid` is false whenever there is one. */
export const MAX_ERRORS = 200;

async function linearRegExp(): Promise<RegExpEngine> {
  const { RE2JS } = await import('re2js');
  return (pattern, flags) => {
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv keys compiled patterns by toString(): it must differ per pattern.
    return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
  };
}

export const jsonValidate: BuiltinSkill = {
  id: 'json.validate',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const text = str(req, 'json');
      const schema = req.schema;
      if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
        if (typeof schema !== 'boolean') throw new RequestError('/schema', '`schema` must be a JSON Schema (an object or a boolean)');
      }
      if (text.length > MAX_JSON_CHARS) return fail('SKILL_INPUT_TOO_LARGE', `\`json\` is longer than ${MAX_JSON_CHARS} characters`, { pointer: '/json' });
      const compiled = await compileSchema(schema, { regExp: await linearRegExp() });
      if ('error' in compiled) return fail('SCHEMA_UNCOMPILABLE', compiled.error.message, { pointer: '/schema' });
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        return ok({ valid: false, errors: [{ pointer: '', message: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` }] });
      }
      if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'validation ran out of time');
      let found;
      try {
        found = compiled.check(value);
      } catch (err) {
        // e.g. a recursive schema on a document nested deeper than the stack allows
        return fail('SCHEMA_UNCOMPILABLE', `the schema cannot be evaluated on this document: ${err instanceof Error ? err.message : String(err)}`);
      }
      const errors = found.slice(0, MAX_ERRORS).map((d) => ({ pointer: d.pointer ?? '', message: d.message }));
      return ok({ valid: found.length === 0, errors });
    }),
};
