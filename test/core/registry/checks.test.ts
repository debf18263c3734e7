import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dirSkillResolver } from '../../../src/core/registry/index.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { codes, copyBundle, editJson, editText, found, SKILLS, tools, uiSchemas, validate, VALID } from './helpers.js';

const SHIPPED = (id: string): string => fixture('..', 'manifests', 'capabilities', id);

describe('publish-time checks', () => {
  it('TOOL_NAME_DUPLICATE: two tools of one bundle share a name', async () => {
    const dir = copyBundle(VALID('weights'));
    editJson(dir, 'tools.json', (d) => tools(d).push({ ...tools(d)[0], description: 'again' }));
    const v = await validate(dir);
    assert.ok(found(v.diagnostics).includes('TOOL_NAME_DUPLICATE /tools/4/name'));
  });

  it('TOOL_NAME_TOO_LONG: the namespaced name must fit in 64 characters', async () => {
    const dir = copyBundle(VALID('meals'));
    const long = 'meal_entry_' + 'x'.repeat(50);
    editJson(dir, 'tools.json', (d) => ((tools(d)[0] as { name: string }).name = long));
    editText(dir, 'skill.md', (t) => t.replace('`meal_entry_list`', `\`${long}\``));
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['TOOL_NAME_TOO_LONG /tools/0/name']);
  });

  it('TOOL_SCHEMA_INVALID: bad regex, dangling $ref, unknown $schema, meta-schema violation', async () => {
    const dir = copyBundle(VALID('meals'));
    editJson(dir, 'tools.json', (d) => {
      const [a, b, c] = tools(d) as Record<string, Record<string, unknown>>[];
      (a as Record<string, Record<string, unknown>>).args_schema = { type: 'object', properties: { from: { type: 'string', pattern: '([' } } };
      (b as Record<string, Record<string, unknown>>).result_schema = { type: 'object', properties: { foods: { $ref: '#/$defs/missing' } } };
      (c as Record<string, Record<string, unknown>>).args_schema = { $schema: 'http://example.com/draft-99', type: 'object' };
      (a as Record<string, Record<string, unknown>>).result_schema = { type: 'object', required: 'totals' };
    });
    const v = await validate(dir);
    const f = found(v.diagnostics);
    for (const p of ['/tools/0/args_schema/properties/from/pattern', '/tools/1/result_schema/properties/foods/$ref', '/tools/2/args_schema/$schema']) {
      assert.ok(f.includes(`TOOL_SCHEMA_INVALID ${p}`), `${p} in\n${f.join('\n')}`);
    }
    assert.ok(f.some((x) => x.startsWith('TOOL_SCHEMA_INVALID /tools/0/result_schema')));
  });

  it('TOOL_WRITE_UNGUARDED: a write tool without approval is a warning, not an error', async () => {
    const dir = copyBundle(VALID('meals'));
    editJson(dir, 'tools.json', (d) => ((tools(d)[2] as { policy: unknown }).policy = { kind: 'write' }));
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['TOOL_WRITE_UNGUARDED /tools/2/policy']);
    assert.equal(v.valid, true);
  });

  it('a tool bound to a skill entrypoint with the same schemas passes', async () => {
    const v = await validate(SHIPPED('filesystem'));
    assert.deepEqual(found(v.diagnostics), []);
  });

  it('TOOL_BINDING_UNRESOLVED: unknown skill, unknown entrypoint, nowhere to look', async () => {
    const dir = copyBundle(SHIPPED('git'));
    editJson(dir, 'tools.json', (d) => {
      (tools(d)[0] as { binding: unknown }).binding = { skill_id: 'git.log', entrypoint_id: 'main' };
      (tools(d)[1] as { binding: unknown }).binding = { skill_id: 'git.diff', entrypoint_id: 'other' };
    });
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['TOOL_BINDING_UNRESOLVED /tools/0/binding', 'TOOL_BINDING_UNRESOLVED /tools/1/binding']);
    const none = await validate(SHIPPED('git'), { skills: dirSkillResolver([]) });
    assert.deepEqual(codes(none.diagnostics), ['TOOL_BINDING_UNRESOLVED']);
  });

  it('TOOL_BINDING_UNRESOLVED: a skill whose manifest has errors does not resolve', async () => {
    const skills = tempDir();
    mkdirSync(join(skills, 'json.validate'));
    writeFileSync(join(skills, 'json.validate', 'skill.yaml'), 'skill_id: json.validate\n');
    const v = await validate(SHIPPED('json'), { skills: dirSkillResolver([skills, SKILLS]) });
    assert.deepEqual(found(v.diagnostics), ['TOOL_BINDING_UNRESOLVED /tools/0/binding']);
    assert.match(v.diagnostics[0]?.message ?? '', /invalid/);
  });

  it('TOOL_BINDING_MISMATCH: points at the first difference from input_schema and output_schema', async () => {
    const dir = copyBundle(SHIPPED('json'));
    editJson(dir, 'tools.json', (d) => {
      const t = tools(d)[0] as { args_schema: { properties: Record<string, unknown> }; result_schema: { required: string[] } };
      t.args_schema.properties.strict = { type: 'boolean' };
      t.result_schema.required = ['valid'];
    });
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['TOOL_BINDING_MISMATCH /tools/0/args_schema/properties/strict', 'TOOL_BINDING_MISMATCH /tools/0/result_schema/required/1']);
  });

  it('TOOL_KIND_UNDERSTATED: a read tool bound to an entrypoint that writes', async () => {
    const dir = copyBundle(SHIPPED('filesystem'));
    editJson(dir, 'tools.json', (d) => ((tools(d)[2] as { policy: unknown }).policy = { kind: 'read' }));
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['TOOL_KIND_UNDERSTATED /tools/2/policy/kind']);
  });

  it('UI_SCHEMA_DUPLICATE and UI_SCHEMA_UNUSED', async () => {
    const dir = copyBundle(VALID('weights'));
    editJson(dir, 'ui_schemas.json', (d) => {
      uiSchemas(d).push({ ...uiSchemas(d)[0] });
      uiSchemas(d).push({ ...uiSchemas(d)[0], schema_id: 'WeightChart.v1' });
    });
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['UI_SCHEMA_DUPLICATE /ui_schemas/3/schema_id', 'UI_SCHEMA_UNUSED /ui_schemas/4/schema_id']);
  });

  it('CAPABILITY_FILE_UNEXPECTED: other files are reported and never published', async () => {
    const dir = copyBundle(VALID('meals'));
    writeFileSync(join(dir, 'notes.txt'), 'draft');
    const v = await validate(dir);
    assert.deepEqual(found(v.diagnostics), ['CAPABILITY_FILE_UNEXPECTED']);
    assert.equal(v.diagnostics[0]?.file, 'bundle/notes.txt');
    assert.equal(v.valid, true);
  });

  it('a directory with none of the four files is one finding, and a missing one is INPUT_NOT_FOUND', async () => {
    const empty = tempDir();
    assert.deepEqual(found((await validate(empty)).diagnostics), ['CAPABILITY_FILE_MISSING']);
    assert.deepEqual(found((await validate(join(empty, 'nope'))).diagnostics), ['INPUT_NOT_FOUND']);
  });
});
