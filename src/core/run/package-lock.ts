/**
 * The pin lookups a run resolves skill ids with: the project's lock, trusted only as verify-pins
 * trusts it (lock-pin.ts), and the lock shipped inside the skillctl package, trusted as its code is.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { readJsonObject } from './json.js';
import { verifiedPin } from './lock-pin.js';
import { compareVersions } from './versions.js';

/** One entry of pins/skills.lock.json, in the fields the run engine needs. */
export interface SkillPin {
  /** `agent-skill` for a SKILL.md folder: instructions for an agent, nothing run can execute. */
  readonly kind?: string;
  readonly skill_id: string;
  readonly skill_version: string;
  /** The bundle directory, relative to the project root (the directory holding pins/). */
  readonly source: string;
  readonly manifest_digest: string;
  readonly content_digest: string;
  readonly archive_digest?: string;
}

/**
 * Finds the pin of `skillId` (at `version`, else the highest version) in the lock of `root`.
 * Returns `pin: undefined` when the lock does not exist or does not pin the skill.
 * The integrator may replace this with the pins module's lookup.
 */
export type PinLookup = (root: string, skillId: string, version: string | undefined) => Promise<{ readonly pin?: SkillPin; readonly diagnostics: readonly Diagnostic[] }>;

export const LOCK_PATH = 'pins/skills.lock.json';

function isPin(v: unknown): v is SkillPin {
  if (v === null || typeof v !== 'object') return false;
  const p = v as Record<string, unknown>;
  return ['skill_id', 'skill_version', 'source', 'manifest_digest', 'content_digest'].every((k) => typeof p[k] === 'string');
}

/** The project's pin, trusted only as verify-pins would trust it (lock-pin.ts). */
export const verifiedPinLookup: PinLookup = verifiedPin;

/**
 * Reads the `skills` array of the lock shipped inside the skillctl package (the minimum shape the
 * pins module writes): that lock is part of skillctl itself, trusted as its code is.
 */
export const lockPinLookup: PinLookup = async (root, skillId, version) => {
  const file = join(root, LOCK_PATH);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { diagnostics: [] };
    return { diagnostics: [diag('RUN_LOCK_INVALID', `cannot read the lock file: ${errnoCode(err) ?? String(err)}`, { file })] };
  }
  const doc = await readJsonObject(bytes);
  const skills = (doc.data as { skills?: unknown } | undefined)?.skills;
  if (!Array.isArray(skills) || !skills.every(isPin)) {
    return { diagnostics: [diag('RUN_LOCK_INVALID', 'the lock file is not JSON with a `skills` array of pins', { file }), ...doc.diagnostics.map((d) => ({ ...d, file }))] };
  }
  const matches = skills.filter((p) => p.skill_id === skillId && (version === undefined || p.skill_version === version));
  // An Agent Skills pin (any `kind`) has nothing to run; a manifest bundle pinned under the same id is still run.
  const byVersion = (a: SkillPin, b: SkillPin): number => compareVersions(b.skill_version, a.skill_version);
  const pin = matches.filter((p) => p.kind === undefined).sort(byVersion)[0];
  const agentSkill = pin === undefined ? matches.sort(byVersion)[0] : undefined;
  if (agentSkill !== undefined) {
    return {
      diagnostics: [
        diag('RUN_BUNDLE_INVALID', `${skillId} is pinned as an Agent Skills folder (${agentSkill.source}), which has no manifest or entrypoints to run`, {
          file,
          hint: `skillctl convert ${agentSkill.source} writes a skill.yaml for its scripts; pin it again, then run it`,
        }),
      ],
    };
  }
  return { ...(pin !== undefined ? { pin } : {}), diagnostics: [] };
};
