/**
 * Holds every `--json` document a test makes skillctl print to its published schema
 * (schemas/cli/, docs/formats/cli-json.md). test/helpers/cli.ts calls it on each run whose
 * arguments ask for JSON, so no test can produce a `--json` output that goes unchecked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ROOT } from './paths.js';

export const CLI_SCHEMAS = join(ROOT, 'schemas', 'cli');

/** The global flags that take no value (src/cli/main.ts): they may stand anywhere, even before the command. */
const GLOBAL_FLAGS: ReadonlySet<string> = new Set(['--json', '--no-color', '-q', '--quiet', '--debug']);

/** The schema of the document every command prints when it cannot produce its result. */
export const ERROR_SCHEMA = 'shared/error.schema.json';

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Every schema under schemas/cli/, by its path there ("validate.schema.json", "shared/error.schema.json"). */
export function cliSchemaFiles(): string[] {
  return readdirSync(CLI_SCHEMAS, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

function validator(file: string): ValidateFunction {
  let v = compiled.get(file);
  if (v !== undefined) return v;
  if (ajv === undefined) {
    // strict: a schema keyword ajv does not know is a typo in our schema, not something to ignore.
    ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    for (const f of cliSchemaFiles()) ajv.addSchema(JSON.parse(readFileSync(join(CLI_SCHEMAS, f), 'utf8')) as object);
  }
  const schema = ajv.getSchema(`https://unpkg.com/skillctl/schemas/cli/${file}`);
  if (schema === undefined) throw new Error(`no schema ${file} in schemas/cli/`);
  v = schema;
  compiled.set(file, v);
  return v;
}

/** True when the arguments ask for the JSON document: --json, or validate's --format json. */
export function wantsJson(args: readonly string[]): boolean {
  if (args.includes('-h') || args.includes('--help')) return false; // help is text, --json or not
  return args.includes('--json') || args.includes('--format=json') || args.some((a, i) => a === '--format' && args[i + 1] === 'json');
}

/**
 * The schema file (under schemas/cli/) of the document `args` print: the command's
 * (`<command>.schema.json`, `<command>-<subcommand>.schema.json`), version.schema.json for
 * --version, else the error document's (an unknown command, or a flag where the command goes).
 */
export function schemaFor(args: readonly string[]): string {
  const words = args.filter((a) => !GLOBAL_FLAGS.has(a));
  const [first, ...rest] = words;
  if (first === '-V' || first === '--version') return 'version.schema.json';
  if (first === undefined || first.startsWith('-')) return ERROR_SCHEMA;
  const files = new Set(cliSchemaFiles());
  const sub = rest.find((a) => !a.startsWith('-'));
  if (sub !== undefined && files.has(`${first}-${sub}.schema.json`)) return `${first}-${sub}.schema.json`;
  if (files.has(`${first}.schema.json`)) return `${first}.schema.json`;
  return ERROR_SCHEMA;
}

/** Throws unless `stdout` is one JSON object valid against the schema of what `args` print. */
export function checkCliJson(args: readonly string[], stdout: string): void {
  const file = schemaFor(args);
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw new Error(`skillctl ${args.join(' ')}: stdout is not one JSON document:\n${stdout}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`skillctl ${args.join(' ')}: the JSON document is not an object:\n${stdout}`);
  const v = validator(file);
  if (!v(doc)) throw new Error(`skillctl ${args.join(' ')}: the JSON document does not match schemas/cli/${file}: ${JSON.stringify(v.errors, null, 2)}\n${stdout}`);
}
