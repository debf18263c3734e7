// The behaviour cases of the reference implementation (Orket's validator and loader tests, as
// listed in ../shared/reference/orket-branchmind.md §A.11), reproduced against skillctl.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalManifest, codes, entrypoint, validateObject } from '../../helpers/manifests.js';

describe('reference metadata cases', () => {
  it('the canonical manifest validates as eligible, complete and validated with no findings', async () => {
    const r = await validateObject(canonicalManifest());
    assert.deepEqual(r.diagnostics.filter((d) => d.severity !== 'info'), []);
    assert.equal(r.valid, true);
    assert.deepEqual(r.metadata, {
      contract_valid: true,
      determinism_eligible: true,
      side_effect_risk: 'declared',
      fingerprint_completeness: 'complete',
      permission_risk: 'declared',
      runtime_pinning: 'pinned',
      trust_level: 'validated',
      validation_policy_version: 'skill.validation.v1',
    });
    assert.equal(r.loader_error, undefined);
  });

  it('validating the same manifest twice gives identical output', async () => {
    const a = await validateObject(canonicalManifest());
    const b = await validateObject(canonicalManifest());
    assert.deepEqual({ ...a, document: undefined }, { ...b, document: undefined });
  });

  it('side-effect categories without side-effect fields make it ineligible and undeclared', async () => {
    const m = canonicalManifest();
    entrypoint(m).side_effect_categories = ['network.http'];
    const r = await validateObject(m);
    assert.equal(r.metadata.determinism_eligible, false);
    assert.equal(r.metadata.side_effect_risk, 'undeclared');
    assert.deepEqual(codes(r), ['SIDE_EFFECT_UNDECLARED']);
    assert.equal(r.diagnostics[0]?.pointer, '/entrypoints/0/side_effect_fingerprint_fields');
  });
});

describe('reference loader cases', () => {
  it('missing description, digest and entrypoints: ERR_SCHEMA_INVALID at stage schema, echoing id and version', async () => {
    const m = canonicalManifest();
    delete m.description;
    delete m.entrypoints;
    m.manifest_digest = undefined;
    const r = await validateObject(JSON.parse(JSON.stringify(m)) as Record<string, unknown>);
    assert.equal(r.loader_error?.error_code, 'ERR_SCHEMA_INVALID');
    assert.equal(r.loader_error?.validation_stage, 'schema');
    assert.equal(r.loader_error?.retryable, false);
    assert.equal(r.loader_error?.skill_id, 'skill.demo');
    assert.equal(r.loader_error?.skill_version, '1.2.3');
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code === 'SCHEMA_REQUIRED').map((d) => d.pointer),
      ['/description', '/entrypoints', '/manifest_digest'],
    );
  });

  it('version 9.9.9: ERR_CONTRACT_UNSUPPORTED_VERSION, stage contract_version, version seen echoed', async () => {
    const m = canonicalManifest();
    m.skill_contract_version = '9.9.9';
    const r = await validateObject(m);
    assert.equal(r.loader_error?.error_code, 'ERR_CONTRACT_UNSUPPORTED_VERSION');
    assert.equal(r.loader_error?.validation_stage, 'contract_version');
    assert.equal(r.loader_error?.skill_contract_version_seen, '9.9.9');
    assert.deepEqual(codes(r), ['CONTRACT_VERSION_UNSUPPORTED']);
  });

  it('a python entrypoint without runtime_version: ERR_RUNTIME_UNPINNED, stage runtime, entrypoint main', async () => {
    const m = canonicalManifest();
    delete entrypoint(m).runtime_version;
    const r = await validateObject(m);
    assert.equal(r.loader_error?.error_code, 'ERR_RUNTIME_UNPINNED');
    assert.equal(r.loader_error?.validation_stage, 'runtime');
    assert.equal(r.loader_error?.entrypoint_id, 'main');
    assert.equal(r.metadata.determinism_eligible, false);
  });

  it('requested read but required write: ERR_PERMISSION_UNDECLARED, stage permissions', async () => {
    const m = canonicalManifest();
    entrypoint(m).requested_permissions = { 'fs.read': ['data'] };
    entrypoint(m).required_permissions = { 'fs.write': ['data'] };
    const r = await validateObject(m);
    assert.equal(r.loader_error?.error_code, 'ERR_PERMISSION_UNDECLARED');
    assert.equal(r.loader_error?.validation_stage, 'permissions');
    assert.equal(r.metadata.permission_risk, 'undeclared');
  });

  it('a digest without an algorithm prefix: ERR_CONTRACT_INVALID', async () => {
    const m = canonicalManifest();
    m.manifest_digest = 'abc';
    const r = await validateObject(m);
    assert.equal(r.loader_error?.error_code, 'ERR_CONTRACT_INVALID');
    assert.deepEqual(codes(r), ['DIGEST_FORMAT']);
  });

  it('an empty entrypoints list: ERR_SCHEMA_INVALID', async () => {
    const m = canonicalManifest();
    m.entrypoints = [];
    const r = await validateObject(m);
    assert.equal(r.loader_error?.error_code, 'ERR_SCHEMA_INVALID');
  });

  it('a required string given for a listed scope value passes (string = set of one)', async () => {
    const m = canonicalManifest();
    entrypoint(m).requested_permissions = { 'fs.write': ['out', 'tmp'] };
    entrypoint(m).required_permissions = { 'fs.write': 'out' };
    const r = await validateObject(m);
    assert.equal(r.valid, true, JSON.stringify(r.diagnostics));
  });

  it('missing result fingerprints plus undeclared side effects: both reported, the loader names the fingerprint', async () => {
    const m = canonicalManifest();
    entrypoint(m).result_fingerprint_fields = [];
    entrypoint(m).side_effect_categories = ['network.http'];
    const r = await validateObject(m);
    assert.deepEqual(codes(r), ['FINGERPRINT_INCOMPLETE', 'SIDE_EFFECT_UNDECLARED']);
    assert.equal(r.loader_error?.error_code, 'ERR_FINGERPRINT_INCOMPLETE');
    assert.match(r.loader_error?.message ?? '', /and 1 more error/);
  });
});
