/**
 * The built-in default bundle: the implementations behind `command: builtin:<skill_id>` in
 * manifests/default/<skill_id>/skill.yaml. The ten skills are added here as they land; the run
 * engine looks a skill up by id and reports RUN_BUILTIN_UNKNOWN for one that is not listed.
 */
import type { BuiltinSkill } from '../core/run/index.js';

/** skill_id -> implementation; `command: builtin:<skill_id>` names a key of this map. */
export const BUILTINS: ReadonlyMap<string, BuiltinSkill> = new Map<string, BuiltinSkill>([]);
