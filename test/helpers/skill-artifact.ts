/**
 * A skill folder as an OCI artifact carries it, without a registry: its `pack` archive as the
 * layer and a config naming its true kind and identity, so that a pull of it verifies. For the
 * tests that serve it from a hostile registry or put it in the blob cache by hand.
 */
import { readFile } from 'node:fs/promises';
import type { SkillConfig } from '../../src/core/oci/index.js';
import { packBundle } from '../../src/core/pack/index.js';
import { checkSkillArchive } from '../../src/core/skill-gate/index.js';

export async function skillArtifact(dir: string, out: string): Promise<{ layer: Buffer; config: SkillConfig }> {
  const archive = (await packBundle(dir, out)).archive;
  if (archive === undefined) throw new Error(`${dir} did not pack`);
  const check = await checkSkillArchive(archive, dir);
  const id = check.identity;
  if (id === undefined || check.kind === undefined) throw new Error(`${dir} does not pack into a skill archive`);
  return { layer: await readFile(archive), config: { kind: check.kind, id: id.skill_id, version: id.skill_version, manifest_digest: id.manifest_digest, content_digest: id.content_digest } };
}
