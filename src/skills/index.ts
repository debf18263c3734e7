/**
 * The built-in default bundle: the implementations behind `command: builtin:<skill_id>` in
 * manifests/default/<skill_id>/skill.yaml. Each entry loads its module only when that skill runs.
 */
import type { BuiltinLookup, BuiltinSkill } from '../core/run/index.js';

/** skill_id → loader of its implementation. */
export const BUILTIN_SKILLS: Readonly<Record<string, () => Promise<BuiltinSkill>>> = {};

export const lookupBuiltin: BuiltinLookup = async (skillId) => {
  const load = Object.hasOwn(BUILTIN_SKILLS, skillId) ? BUILTIN_SKILLS[skillId] : undefined;
  return load === undefined ? undefined : load();
};
