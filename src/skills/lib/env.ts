/** The environment a skill hands to a program: PATH, plus each name the policy lets it pass. */
import type { BuiltinContext } from '../../core/run/index.js';

export function childEnv(ctx: BuiltinContext, drop: (name: string) => boolean = () => false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (drop(name)) continue;
    if (name === 'PATH' || ctx.policy.checkEnv(name).allowed) env[name] = value;
  }
  return env;
}
