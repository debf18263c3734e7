// Every finding in one pass (docs/commands/validate.md): a manifest broken in its schema still
// gets every rule finding that does not depend on the broken part, and a type finding's hint is
// the fix.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateBundle, validateManifest } from '../../../src/core/manifest/index.js';
import { skillctl } from '../../helpers/cli.js';
import { canonicalManifest, entrypoint, validateObject } from '../../helpers/manifests.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/** A skill broken six ways: a float version, a loose runtime, an undeclared fingerprint, none for results, an undeclared permission, an unknown field. */
const SIX_WAYS = `skill_contract_version: skill.contract.v1
skill_id: demo.six
skill_version: 1.0
description: Six ways broken.
manifest_digest: sha256:0000000000000000000000000000000000000000000000000000000000000000
entrypoints:
  - entrypoint_id: main
    runtime: node
    runtime_version: "20"
    command: node main.js
    working_directory: .
    runtime_limits: {max_execution_time: 10}
    input_schema:
      type: object
      properties:
        path: {type: string}
    output_schema: {type: object}
    error_schema: {type: object}
    args_fingerprint_fields: [input.pth]
    result_fingerprint_fields: []
    side_effect_fingerprint_fields: []
    side_effect_categories: []
    requested_permissions:
      fs.read: [.]
    required_permissions:
      fs.read: [.]
      fs.write: [out]
    tool_profile_id: demo.six
    tool_profile_version: 1.0.0
    colour: blue
`;

function sixWays(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'skill.yaml'), SIX_WAYS);
  copyFileSync(fixture('manifests', 'valid', 'node-entrypoint', 'main.js'), join(dir, 'main.js'));
  return dir;
}

function found(r: { diagnostics: readonly { code: string; severity: string; pointer?: string }[] }): string[] {
  // Info findings (determinism eligibility) are not the loader's: test/core/manifest/determinism.test.ts.
  return r.diagnostics.filter((d) => d.code !== 'CONTENT_DIGEST_MISSING' && d.severity !== 'info').map((d) => `${d.code} ${d.pointer ?? ''}`);
}

describe('validate: every finding in one pass', () => {
  it('a skill broken six ways gets its schema and its rule findings together', async () => {
    const r = await validateBundle(sixWays());
    // Sorted by pointer, as every linter result is.
    assert.deepEqual(found(r), [
      'FINGERPRINT_FIELD_UNKNOWN /entrypoints/0/args_fingerprint_fields/0',
      'SCHEMA_UNKNOWN_FIELD /entrypoints/0/colour',
      'PERMISSION_UNDECLARED /entrypoints/0/required_permissions/fs.write',
      'FINGERPRINT_INCOMPLETE /entrypoints/0/result_fingerprint_fields',
      'RUNTIME_UNPINNED /entrypoints/0/runtime_version',
      'MANIFEST_DIGEST_MISMATCH /manifest_digest',
      'SCHEMA_TYPE /skill_version',
    ]);
    assert.equal(r.loader_error?.error_code, 'ERR_SCHEMA_INVALID', 'the loader error keeps its precedence');
  });

  it('skill_version: 1.0 is named a float, and the hint is the fix', async () => {
    const r = await validateBundle(sixWays());
    const d = r.diagnostics.find((x) => x.code === 'SCHEMA_TYPE');
    assert.equal(d?.message, '`skill_version` must be a string, not a float (1.0)');
    assert.equal(d?.hint, 'skill_version must be a string such as "1.0.0"; quote it');
  });

  it("the rules' hints are fixes: the nearest declared property, the prefix, one exact version", async () => {
    const r = await validateBundle(sixWays());
    const hint = (code: string): string | undefined => r.diagnostics.find((d) => d.code === code)?.hint;
    assert.equal(hint('FINGERPRINT_FIELD_UNKNOWN'), 'did you mean input.path? If not, declare pth under properties');
    assert.equal(hint('RUNTIME_UNPINNED'), 'write one exact version, e.g. runtime_version: 20.19.0 (the exact Node.js version)');
    const m = canonicalManifest();
    Object.assign(entrypoint(m), { args_fingerprint_fields: ['task', 'inpt.task', 'input.nothing_like_it'] });
    const hints = (await validateObject(m)).diagnostics.filter((d) => d.code === 'FINGERPRINT_FIELD_UNKNOWN').map((d) => [d.pointer, d.hint]);
    assert.deepEqual(hints, [
      ['/entrypoints/0/args_fingerprint_fields/0', 'write it as input.task'],
      ['/entrypoints/0/args_fingerprint_fields/1', 'did you mean input.task?'],
      ['/entrypoints/0/args_fingerprint_fields/2', 'declare nothing_like_it under properties, or fix the path'],
    ]);
  });

  it('the command line shows them in one run, exit 1', () => {
    const r = skillctl(['validate', '--json', sixWays()]);
    assert.equal(r.code, 1);
    const codes = (JSON.parse(r.stdout) as { results: { diagnostics: { code: string }[] }[] }).results[0]?.diagnostics.map((d) => d.code);
    for (const c of ['SCHEMA_TYPE', 'RUNTIME_UNPINNED', 'FINGERPRINT_FIELD_UNKNOWN', 'PERMISSION_UNDECLARED']) assert.ok(codes?.includes(c), c);
  });

  it('in JSON, 1.0 is a number; an integer is an integer', async () => {
    const m = canonicalManifest();
    const text = JSON.stringify(m, null, 2).replace('"skill_version": "1.2.3"', '"skill_version": 1.0').replace('"tool_profile_version": "1.0.0"', '"tool_profile_version": 2');
    const r = await validateManifest(Buffer.from(text), 'json', { file: 'skill.json' });
    const types = r.diagnostics.filter((d) => d.code === 'SCHEMA_TYPE').map((d) => [d.message, d.hint]);
    assert.deepEqual(types, [
      ['`tool_profile_version` must be a string, not an integer (2)', 'tool_profile_version must be a string such as "1.0.0"; quote it'],
      ['`skill_version` must be a string, not a number (1.0)', 'skill_version must be a string such as "1.0.0"; quote it'],
    ]);
  });

  it('type hints: a string where a list goes, quotes around a number, a mapping', async () => {
    const m = canonicalManifest();
    Object.assign(entrypoint(m), { args_fingerprint_fields: 'input.task', runtime_limits: 10 });
    const r = await validateObject(m);
    const types = r.diagnostics.filter((d) => d.code === 'SCHEMA_TYPE').map((d) => [d.pointer, d.message, d.hint]);
    assert.deepEqual(types, [
      ['/entrypoints/0/args_fingerprint_fields', '`args_fingerprint_fields` must be an array, not a string ("input.task")', 'args_fingerprint_fields must be a list; write it as ["input.task"]'],
      ['/entrypoints/0/runtime_limits', '`runtime_limits` must be an object, not an integer (10)', 'runtime_limits must be an object such as {max_execution_time: 10}'],
    ]);
  });

  it('a field of the wrong type is unknown, not absent: no "without runtime_version"', async () => {
    const m = canonicalManifest();
    Object.assign(entrypoint(m), { runtime_version: 3 });
    const r = await validateObject(m);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['SCHEMA_TYPE'],
    );
  });

  it('unreadable requested_permissions: nothing is called undeclared', async () => {
    const m = canonicalManifest();
    Object.assign(entrypoint(m), { requested_permissions: { 'fs.reed': ['.'] }, required_permissions: { 'fs.read': ['.'] } });
    const r = await validateObject(m);
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['PERMISSION_SCOPE_UNKNOWN']);
  });

  it('no rule throws, whatever type any field has', async () => {
    const values: unknown[] = [null, 1, 1.5, true, 'x', '', [], [1], ['x'], {}, { a: 1 }, { 'fs.read': 1 }, { max_memory: {} }];
    const fields = Object.keys(entrypoint(canonicalManifest()));
    const extra = ['requested_determinism_profile', 'required_environment_variables', 'value_fingerprints', 'execution_context', 'ring', 'declared_namespace_scopes'];
    for (const field of [...fields, ...extra]) {
      for (const v of values) {
        const m = canonicalManifest();
        entrypoint(m)[field] = v;
        const r = await validateObject(m);
        assert.ok(Array.isArray(r.diagnostics), `${field}=${JSON.stringify(v)}`);
      }
    }
    for (const field of Object.keys(canonicalManifest())) {
      for (const v of values) {
        const m = canonicalManifest();
        m[field] = v;
        await validateObject(m);
      }
    }
  });
});
