/**
 * The published schemas of every `--json` document (schemas/cli/, docs/formats/cli-json.md):
 * one per command, derived from the command definitions so a new command without one fails
 * here, and the checker every CLI test runs (test/helpers/cli-json.ts) refusing what they forbid.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { checkCliJson, CLI_SCHEMAS, cliSchemaFiles, ERROR_SCHEMA, schemaFor } from '../helpers/cli-json.js';
import { skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

/** Every command that runs (a leaf of the command tree), as its words: ['registry', 'load']. */
function leafCommands(): string[][] {
  const program = new Command('skillctl');
  for (const register of COMMANDS) register(program, () => Promise.resolve());
  const walk = (cmd: Command, path: string[]): string[][] => (cmd.commands.length === 0 ? [path] : cmd.commands.flatMap((c) => walk(c, [...path, c.name()])));
  return program.commands.flatMap((c) => walk(c, [c.name()]));
}

describe('schemas/cli: a schema for every --json document', () => {
  it('every command has schemas/cli/<command>[-<subcommand>].schema.json, and every such file a command', () => {
    const expected = leafCommands().map((words) => `${words.join('-')}.schema.json`);
    assert.ok(expected.includes('validate.schema.json') && expected.includes('registry-load.schema.json'), expected.join(', '));
    const files = cliSchemaFiles().filter((f) => !f.startsWith('shared/'));
    assert.deepEqual(files, [...expected, 'version.schema.json'].sort());
  });

  it('each is a draft 2020-12 schema whose $id is its place in the package', () => {
    for (const file of cliSchemaFiles()) {
      const schema = JSON.parse(readFileSync(join(CLI_SCHEMAS, file), 'utf8')) as { $schema?: string; $id?: string; title?: string };
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', file);
      assert.equal(schema.$id, `https://unpkg.com/skillctl/schemas/cli/${file}`, file);
      assert.equal(typeof schema.title, 'string', file);
    }
  });

  it('docs/formats/cli-json.md names every schema file', () => {
    const page = readFileSync(join(ROOT, 'docs', 'formats', 'cli-json.md'), 'utf8');
    for (const file of cliSchemaFiles()) assert.ok(page.includes(`schemas/cli/${file}`), file);
  });

  it('the arguments pick the schema: command and subcommand, --version, and the error document otherwise', () => {
    assert.equal(schemaFor(['validate', '--json', 'manifests']), 'validate.schema.json');
    assert.equal(schemaFor(['--json', 'registry', 'validate', 'caps/weights']), 'registry-validate.schema.json');
    assert.equal(schemaFor(['registry', 'load', '--json', 'registry']), 'registry-load.schema.json');
    assert.equal(schemaFor(['--json', '-V']), 'version.schema.json');
    assert.equal(schemaFor(['--json', 'nosuch']), ERROR_SCHEMA);
    assert.equal(schemaFor(['--json', '--bogus']), ERROR_SCHEMA);
    assert.equal(schemaFor(['registry', '--json', 'nosuch']), ERROR_SCHEMA);
  });
});

describe('the checker every CLI test runs on --json output', () => {
  it('refuses a bare array, two documents, and a document off its schema', () => {
    assert.throws(() => checkCliJson(['validate', '--json', 'x'], '[]\n'), /the JSON document is not an object/);
    assert.throws(() => checkCliJson(['validate', '--json', 'x'], '{}\n{}\n'), /stdout is not one JSON document/);
    assert.throws(() => checkCliJson(['validate', '--json', 'x'], '1.0.0\n'), /stdout is not one JSON document/);
    assert.throws(() => checkCliJson(['validate', '--json', 'x'], '{"results":[]}\n'), /does not match schemas\/cli\/validate\.schema\.json/);
    assert.throws(() => checkCliJson(['--json', '--version'], '{"name":"skillctl","version":"1.0.0"}\n'), /does not match schemas\/cli\/version\.schema\.json/);
    // An error document whose code is not a catalogue code's form.
    assert.throws(() => checkCliJson(['--json', 'nosuch'], '{"error":{"code":"no such","message":"x"}}\n'), /does not match schemas\/cli\/shared\/error\.schema\.json/);
  });

  it('accepts the error document from any command', () => {
    checkCliJson(['pack', '--json', 'x'], '{"error":{"code":"USAGE","message":"m","hint":"h"}}\n');
    checkCliJson(['registry', 'load', '--json', 'x'], '{"error":{"code":"CAPABILITY_NOT_FOUND","message":"m","available_capabilities":[]}}\n');
  });

  it('a run the helper makes is checked: validate --json prints one object with results and a summary', () => {
    const r = skillctl(['validate', '--json', 'fixtures/manifests/valid/python-entrypoint']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { ok: boolean; results: { file: string; valid: boolean }[]; input_errors: unknown[]; summary: Record<string, number> };
    assert.equal(doc.ok, true);
    assert.deepEqual(doc.input_errors, []);
    assert.deepEqual(doc.summary, { checked: 1, valid: 1, invalid: 0, errors: 0, warnings: 0 });
    assert.equal(doc.results[0]?.valid, true);
  });
});
