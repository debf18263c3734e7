import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { computeContent, dirSource } from '../../src/core/bundle/index.js';
import { manifestDigestOf } from '../../src/core/manifest/index.js';

/** A valid entrypoint of the given runtime and command, with permissive object schemas. */
export function entry(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    entrypoint_id: 'main',
    runtime: 'builtin',
    command: 'builtin:test.skill',
    working_directory: '.',
    runtime_limits: {},
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    output_schema: { type: 'object', properties: { ok: {} } },
    error_schema: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    args_fingerprint_fields: ['input.path'],
    result_fingerprint_fields: ['result.ok'],
    side_effect_fingerprint_fields: [],
    side_effect_categories: [],
    requested_permissions: {},
    required_permissions: {},
    tool_profile_id: 'test.tool',
    tool_profile_version: '1.0.0',
    ...over,
  };
}

export interface BundleSpec {
  readonly skill_id?: string;
  readonly skill_version?: string;
  readonly entrypoints: readonly Record<string, unknown>[];
  /** Files of the bundle: path -> content (mode 0755 when the path ends in .sh or has no dot). */
  readonly files?: Readonly<Record<string, string>>;
  readonly executable?: readonly string[];
}

/** Writes a digest-correct bundle (skill.json) into `dir`. */
export async function writeBundle(dir: string, spec: BundleSpec): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [path, text] of Object.entries(spec.files ?? {})) {
    const p = join(dir, path);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, text);
    if ((spec.executable ?? []).includes(path)) await chmod(p, 0o755);
  }
  const content = await computeContent(dirSource(dir));
  const manifest: Record<string, unknown> = {
    skill_contract_version: 'skill.contract.v1',
    skill_id: spec.skill_id ?? 'test.skill',
    skill_version: spec.skill_version ?? '0.1.0',
    description: 'A test skill.',
    manifest_digest: '',
    content_digest: content.digest,
    entrypoints: spec.entrypoints,
  };
  manifest.manifest_digest = manifestDigestOf(manifest);
  await writeFile(join(dir, 'skill.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}
