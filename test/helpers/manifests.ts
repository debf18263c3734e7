import { manifestDigestOf, validateManifest, type ManifestValidation } from '../../src/core/manifest/index.js';

/** The reference's canonical valid manifest (Orket test_skill_validation_metadata), made digest-correct. */
export function canonicalManifest(): Record<string, unknown> {
  return {
    skill_contract_version: '1.0.5',
    skill_id: 'skill.demo',
    skill_version: '1.2.3',
    description: 'Summarise a task description.',
    manifest_digest: '',
    entrypoints: [
      {
        entrypoint_id: 'main',
        runtime: 'python',
        runtime_version: '3.11.0',
        command: 'python run.py',
        working_directory: '.',
        runtime_limits: {},
        input_schema: { type: 'object', properties: { task: { type: 'string' } } },
        output_schema: { type: 'object', properties: { summary: { type: 'string' } } },
        error_schema: {},
        args_fingerprint_fields: ['input.task'],
        result_fingerprint_fields: ['result.summary'],
        side_effect_fingerprint_fields: [],
        side_effect_categories: [],
        requested_permissions: {},
        required_permissions: {},
        tool_profile_id: 'tool.demo',
        tool_profile_version: '1.0.0',
      },
    ],
  };
}

/** Sets a correct manifest_digest, unless the manifest already carries a non-empty one. */
export function withDigest(m: Record<string, unknown>): Record<string, unknown> {
  if (m.manifest_digest !== '') return m;
  return { ...m, manifest_digest: manifestDigestOf(m) };
}

export function entrypoint(m: Record<string, unknown>, i = 0): Record<string, unknown> {
  return (m.entrypoints as Record<string, unknown>[])[i] as Record<string, unknown>;
}

/** Validates a manifest object as a JSON document read from stdin (no bundle). */
export function validateObject(m: Record<string, unknown>): Promise<ManifestValidation> {
  return validateManifest(Buffer.from(JSON.stringify(withDigest(m), null, 2)), 'json', { file: 'skill.json' });
}

export function codes(r: ManifestValidation): string[] {
  return r.diagnostics.map((d) => d.code);
}
