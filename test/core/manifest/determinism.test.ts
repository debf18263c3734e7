// Determinism eligibility, per entrypoint: each input seed 003 derives it from (and the execution
// context) flips it on its own, with its code and pointer; none of the determinism checks' findings
// makes a manifest invalid by itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ManifestValidation } from '../../../src/core/manifest/index.js';
import { canonicalManifest, entrypoint, validateObject } from '../../helpers/manifests.js';

type Manifest = Record<string, unknown>;

/** Each entrypoint's reasons as [code, pointer]. */
function reasons(r: ManifestValidation, i = 0): [string, string][] {
  return (r.entrypoints[i]?.determinism.reasons ?? []).map((x) => [x.code, x.pointer]);
}

/** The manifest stays valid, with no loader error, and is not eligible for exactly `expected`. */
async function ineligibleOnly(m: Manifest, expected: [string, string][]): Promise<ManifestValidation> {
  const r = await validateObject(m);
  assert.equal(r.valid, true, JSON.stringify(r.diagnostics, null, 2));
  assert.equal(r.loader_error, undefined);
  assert.deepEqual(reasons(r), expected);
  assert.equal(r.entrypoints[0]?.determinism.eligible, false);
  assert.equal(r.metadata.determinism_eligible, false);
  // Each reason is also a finding of the manifest, at info severity.
  for (const [code, pointer] of expected) assert.ok(r.diagnostics.some((d) => d.code === code && d.pointer === pointer && d.severity === 'info'), code);
  return r;
}

function builtin(m: Manifest): Record<string, unknown> {
  const ep = entrypoint(m);
  ep.runtime = 'builtin';
  ep.command = 'builtin:skill.demo';
  delete ep.runtime_version;
  return ep;
}

describe('determinism eligibility', () => {
  it('the canonical manifest is eligible, with no reasons', async () => {
    const r = await validateObject(canonicalManifest());
    assert.deepEqual(r.entrypoints, [{ entrypoint_id: 'main', pointer: '/entrypoints/0', determinism: { eligible: true, reasons: [] } }]);
    assert.equal(r.metadata.determinism_eligible, true);
  });

  describe('schema validity', () => {
    it('a schema error is a reason of every entrypoint: the manifest is not a contract at all', async () => {
      const m = canonicalManifest();
      const second = { ...entrypoint(m), entrypoint_id: 'other', tool_profile_id: 'tool.other', entrypiont: 'x' };
      m.entrypoints = [entrypoint(m), second];
      const r = await validateObject(m);
      assert.equal(r.metadata.contract_valid, false);
      for (const i of [0, 1]) assert.deepEqual(reasons(r, i), [['SCHEMA_UNKNOWN_FIELD', '/entrypoints/1/entrypiont']]);
    });
  });

  describe('runtime pinning', () => {
    it('a node range is RUNTIME_UNPINNED, a loader error, and the reason', async () => {
      const m = canonicalManifest();
      Object.assign(entrypoint(m), { runtime: 'node', runtime_version: '^20', command: 'node main.js' });
      const r = await validateObject(m);
      assert.equal(r.valid, false);
      assert.deepEqual(reasons(r), [['RUNTIME_UNPINNED', '/entrypoints/0/runtime_version']]);
      assert.equal(r.metadata.runtime_pinning, 'unpinned');
    });

    it('a builtin is pinned by the skillctl that ships it: eligible without runtime_version', async () => {
      const m = canonicalManifest();
      builtin(m);
      const r = await validateObject(m);
      assert.equal(r.entrypoints[0]?.determinism.eligible, true, JSON.stringify(r.entrypoints));
    });

    it('a builtin runtime_version that floats: DETERMINISM_RUNTIME_INEXACT', async () => {
      const m = canonicalManifest();
      builtin(m).runtime_version = '^0.1';
      const r = await ineligibleOnly(m, [['DETERMINISM_RUNTIME_INEXACT', '/entrypoints/0/runtime_version']]);
      assert.equal(r.metadata.runtime_pinning, 'unpinned');
      builtin(m).runtime_version = '0.1.0';
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });
  });

  describe('fingerprint completeness', () => {
    it('an input property left out of args_fingerprint_fields', async () => {
      const m = canonicalManifest();
      entrypoint(m).input_schema = { type: 'object', properties: { task: { type: 'string' }, mode: { type: 'string' } } };
      const r = await ineligibleOnly(m, [['DETERMINISM_FINGERPRINT_UNCOVERED', '/entrypoints/0/input_schema/properties/mode']]);
      assert.equal(r.metadata.fingerprint_completeness, 'incomplete');
    });

    it('an output property left out of result_fingerprint_fields', async () => {
      const m = canonicalManifest();
      entrypoint(m).output_schema = { type: 'object', properties: { summary: { type: 'string' }, duration_ms: { type: 'integer' } } };
      await ineligibleOnly(m, [['DETERMINISM_FINGERPRINT_UNCOVERED', '/entrypoints/0/output_schema/properties/duration_ms']]);
    });

    it('a nested property: covered by its own path or its parent, named at its declaration', async () => {
      const m = canonicalManifest();
      const options = { type: 'object', properties: { depth: { type: 'integer' }, follow: { type: 'boolean' } } };
      entrypoint(m).input_schema = { type: 'object', properties: { task: { type: 'string' }, options } };
      entrypoint(m).args_fingerprint_fields = ['input.task', 'input.options.depth'];
      await ineligibleOnly(m, [['DETERMINISM_FINGERPRINT_UNCOVERED', '/entrypoints/0/input_schema/properties/options/properties/follow']]);
      entrypoint(m).args_fingerprint_fields = ['input.task', 'input.options'];
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });

    it('properties of allOf branches and local $refs count, and `input` covers them all', async () => {
      const m = canonicalManifest();
      entrypoint(m).input_schema = {
        type: 'object',
        $defs: { extra: { properties: { lang: { type: 'string' } } } },
        allOf: [{ properties: { task: { type: 'string' } } }, { $ref: '#/$defs/extra' }],
      };
      await ineligibleOnly(m, [['DETERMINISM_FINGERPRINT_UNCOVERED', '/entrypoints/0/input_schema/$defs/extra/properties/lang']]);
      entrypoint(m).args_fingerprint_fields = ['input'];
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });
  });

  describe('side-effect coverage of permissions', () => {
    it('net.http requested without network.http or side-effect fields', async () => {
      const m = canonicalManifest();
      entrypoint(m).requested_permissions = { 'net.http': ['https://api.example.com'] };
      const r = await ineligibleOnly(m, [
        ['DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/requested_permissions/net.http'],
        ['DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/side_effect_fingerprint_fields'],
      ]);
      assert.equal(r.metadata.side_effect_risk, 'undeclared');
    });

    it('fs.write required with a category for another effect', async () => {
      const m = canonicalManifest();
      Object.assign(entrypoint(m), {
        requested_permissions: { 'fs.write': ['out'] },
        required_permissions: { 'fs.write': ['out'] },
        side_effect_categories: ['clock.read'],
        side_effect_fingerprint_fields: ['input.task'],
      });
      await ineligibleOnly(m, [['DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/requested_permissions/fs.write']]);
    });

    it('exec without process.spawn; each permission covered makes it eligible', async () => {
      const m = canonicalManifest();
      Object.assign(entrypoint(m), { requested_permissions: { exec: ['git'], 'fs.write': ['out'] }, side_effect_categories: ['filesystem.write'], side_effect_fingerprint_fields: ['input.task'] });
      await ineligibleOnly(m, [['DETERMINISM_SIDE_EFFECT_UNCOVERED', '/entrypoints/0/requested_permissions/exec']]);
      entrypoint(m).side_effect_categories = ['filesystem.write', 'process.spawn'];
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });

    it('fs.read and env are not side effects', async () => {
      const m = canonicalManifest();
      entrypoint(m).requested_permissions = { 'fs.read': ['.'], env: ['HOME'] };
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });
  });

  describe('permission declarations', () => {
    it('PERMISSION_UNDECLARED is the reason of the entrypoint it points into, not of the others', async () => {
      const m = canonicalManifest();
      const second = { ...entrypoint(m), entrypoint_id: 'other', tool_profile_id: 'tool.other', required_permissions: { 'fs.read': ['data'] } };
      m.entrypoints = [entrypoint(m), second];
      const r = await validateObject(m);
      assert.equal(r.metadata.permission_risk, 'undeclared');
      assert.deepEqual(reasons(r, 0), []);
      assert.deepEqual(reasons(r, 1), [['PERMISSION_UNDECLARED', '/entrypoints/1/required_permissions/fs.read']]);
      assert.equal(r.metadata.determinism_eligible, false);
    });
  });

  describe('execution context', () => {
    it('declared or defaulted: no context at all is eligible (C.UTF-8, UTC, utf-8)', async () => {
      const m = canonicalManifest();
      entrypoint(m).execution_context = { timezone: 'Europe/Berlin' };
      assert.equal((await validateObject(m)).metadata.determinism_eligible, true);
    });

    it('a time zone taken from the host: DETERMINISM_CONTEXT_FROM_HOST', async () => {
      const m = canonicalManifest();
      Object.assign(entrypoint(m), { required_environment_variables: ['API_URL', 'TZ'], requested_permissions: { env: ['API_URL', 'TZ'] } });
      await ineligibleOnly(m, [['DETERMINISM_CONTEXT_FROM_HOST', '/entrypoints/0/required_environment_variables/1']]);
    });

    it('an inherited LANG is one finding, and a reason of each entrypoint that inherits it', async () => {
      const m = canonicalManifest();
      m.execution_context = { required_environment_variables: ['LANG'] };
      const own = { ...entrypoint(m), entrypoint_id: 'own', tool_profile_id: 'tool.own', required_environment_variables: [] };
      m.entrypoints = [{ ...entrypoint(m), requested_permissions: { env: ['LANG'] } }, own];
      const r = await validateObject(m);
      assert.equal(r.diagnostics.filter((d) => d.code === 'DETERMINISM_CONTEXT_FROM_HOST').length, 1);
      assert.deepEqual(reasons(r, 0), [['DETERMINISM_CONTEXT_FROM_HOST', '/execution_context/required_environment_variables/0']]);
      assert.deepEqual(reasons(r, 1), []);
    });

    it('a locale that is not one: EXECUTION_CONTEXT_INVALID, a loader error, is the reason', async () => {
      const m = canonicalManifest();
      entrypoint(m).execution_context = { locale: 'no such locale' };
      const r = await validateObject(m);
      assert.deepEqual(reasons(r), [['EXECUTION_CONTEXT_INVALID', '/entrypoints/0/execution_context/locale']]);
      assert.equal(r.metadata.determinism_eligible, false);
    });
  });

  describe('requested_determinism_profile', () => {
    it('strict on an ineligible entrypoint: the warning DETERMINISM_REQUEST_UNMET, still valid', async () => {
      const m = canonicalManifest();
      entrypoint(m).requested_determinism_profile = 'strict';
      entrypoint(m).output_schema = { type: 'object', properties: { summary: { type: 'string' }, at: { type: 'string' } } };
      const r = await validateObject(m);
      assert.equal(r.valid, true);
      const unmet = r.diagnostics.filter((d) => d.code === 'DETERMINISM_REQUEST_UNMET');
      assert.deepEqual(
        unmet.map((d) => [d.severity, d.pointer]),
        [['warning', '/entrypoints/0/requested_determinism_profile']],
      );
      assert.match(unmet[0]?.message ?? '', /DETERMINISM_FINGERPRINT_UNCOVERED/);
    });

    it('strict on an eligible entrypoint says nothing; a profile never changes eligibility', async () => {
      for (const profile of ['strict', 'best_effort', 'none']) {
        const m = canonicalManifest();
        entrypoint(m).requested_determinism_profile = profile;
        const r = await validateObject(m);
        assert.deepEqual(r.diagnostics.filter((d) => d.severity !== 'info'), [], profile);
        assert.equal(r.metadata.determinism_eligible, true, profile);
      }
    });
  });
});
