import type { SkillResolver } from '../core/registry/index.js';
import { resolveSkill } from '../core/run/index.js';
import type { Context } from './context.js';
import { runResolveOptions } from './run-env.js';

/**
 * Tool bindings resolve exactly as `skillctl run` resolves a skill id (the project's lock, then
 * the default bundle inside the package), so publish checks the skill that calls will run.
 */
export function runSkillResolver(ctx: Context, root: string | undefined): SkillResolver {
  return {
    async resolve(skillId) {
      const r = await resolveSkill(skillId, { cwd: ctx.io.cwd, ...runResolveOptions(root), skillIdOnly: true });
      if (r.skill !== undefined) return { manifest: r.skill.manifest, source: r.skill.dir };
      const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
      return { reason: errors.join('; ') || `no skill ${skillId}` };
    },
  };
}
