/**
 * The skill ids `skillctl run` accepts, where resolve.ts looks them up: the project's lock first
 * (manifest bundles it pins; an Agent Skills pin has nothing to run), then the default bundle
 * shipped with skillctl. `run --list` shows them; a skill id that is neither gets the nearest of
 * them as a "did you mean".
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { DEFAULT_LOCK_PATH, type SkillctlLock } from '../pins/model.js';
import { closest } from '../suggest.js';
import { verifiedLock } from './lock-pin.js';
import type { BundleSnapshots } from './snapshot.js';
import { compareVersions } from './versions.js';

export interface ListedSkill {
  readonly skill_id: string;
  readonly skill_version: string;
  /** `lock`: pinned in the project's lock; `default`: the default bundle shipped with skillctl. */
  readonly origin: 'lock' | 'default';
  /** The bundle: the lock's `source` (relative to the project root), or `builtin:<skill_id>`. */
  readonly source: string;
  /** True for what `run <skill_id>` (without @version) runs: the project's highest pinned version, else the built-in. */
  readonly selected: boolean;
  /** True when a lock pins it: the project's for `lock`, skillctl's own for `default`. */
  readonly pinned: boolean;
  readonly description?: string;
}

export interface SkillCatalogue {
  /** Sorted by skill id, then the selected one first, then by version, highest first. */
  readonly skills: readonly ListedSkill[];
  /** Why the project's lock could not be read (its pins are then left out). */
  readonly diagnostics: readonly Diagnostic[];
}

export interface CatalogueOptions {
  /** The project root (holding pins/skills.lock.json), if there is one. */
  readonly projectRoot?: string;
  /** The skillctl package root: the default bundle is manifests/default/ in it. */
  readonly packageRoot?: string;
  /** Build-time validation results of the default bundle: the versions and descriptions. */
  readonly defaultSnapshots?: BundleSnapshots;
  /** skillctl's own pin of a built-in (resolve.ts `lockPinLookup`); without it none counts as pinned. */
  readonly ownPin?: (packageRoot: string, skillId: string, version: undefined) => Promise<{ readonly pin?: { readonly skill_version: string } }>;
}

/** The ids of the default bundle: the directories of manifests/default/ in the package. */
async function builtinIds(packageRoot: string | undefined): Promise<string[]> {
  if (packageRoot === undefined) return [];
  try {
    const entries = await readdir(join(packageRoot, 'manifests', 'default'), { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

async function builtins(opts: CatalogueOptions, pinnedIds: ReadonlySet<string>): Promise<ListedSkill[]> {
  const out: ListedSkill[] = [];
  for (const id of await builtinIds(opts.packageRoot)) {
    const snap = opts.defaultSnapshots !== undefined && Object.hasOwn(opts.defaultSnapshots, id) ? opts.defaultSnapshots[id] : undefined;
    const own = opts.packageRoot !== undefined && opts.ownPin !== undefined ? (await opts.ownPin(opts.packageRoot, id, undefined)).pin : undefined;
    const version = snap?.manifest.skill_version ?? own?.skill_version;
    if (version === undefined) continue;
    out.push({
      skill_id: id,
      skill_version: version,
      origin: 'default',
      source: `builtin:${id}`,
      selected: !pinnedIds.has(id),
      pinned: own !== undefined,
      ...(snap !== undefined ? { description: snap.manifest.description } : {}),
    });
  }
  return out;
}

/** Every skill id `run` accepts, with its versions and where it comes from. */
export async function listSkills(opts: CatalogueOptions): Promise<SkillCatalogue> {
  const found: { readonly lock?: SkillctlLock; readonly diagnostics: readonly Diagnostic[] } = opts.projectRoot !== undefined ? await verifiedLock(opts.projectRoot) : { diagnostics: [] };
  const pins = (found.lock?.skills ?? []).filter((p) => p.kind === undefined);
  const highest = new Map<string, string>();
  for (const p of pins) {
    const best = highest.get(p.skill_id);
    if (best === undefined || compareVersions(p.skill_version, best) > 0) highest.set(p.skill_id, p.skill_version);
  }
  const project: ListedSkill[] = pins.map((p) => ({
    skill_id: p.skill_id,
    skill_version: p.skill_version,
    origin: 'lock',
    source: p.source,
    selected: highest.get(p.skill_id) === p.skill_version,
    pinned: true,
  }));
  const skills = [...project, ...(await builtins(opts, new Set(highest.keys())))].sort(
    (a, b) => (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0) || Number(b.selected) - Number(a.selected) || compareVersions(b.skill_version, a.skill_version),
  );
  return { skills, diagnostics: found.diagnostics };
}

/** RUN_SKILL_NOT_FOUND for `skillId`, with the nearest id `run` accepts as a "did you mean". */
export async function skillNotFound(target: string, skillId: string, opts: CatalogueOptions): Promise<Diagnostic> {
  const where = `${opts.projectRoot !== undefined ? `${join(opts.projectRoot, DEFAULT_LOCK_PATH)} or ` : ''}the default bundle`;
  const { skills } = await listSkills(opts);
  const guess = closest(skillId, new Set(skills.map((s) => s.skill_id)));
  const rest = 'skillctl run --list shows the skill ids; pin a bundle with skillctl pin, or run its directory (./path)';
  return diag('RUN_SKILL_NOT_FOUND', `no skill ${target} in ${where}`, { hint: guess !== undefined ? `did you mean ${guess}? ${rest}` : rest });
}
