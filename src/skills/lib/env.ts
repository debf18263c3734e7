/**
 * The environment a skill hands to a program: PATH, the run's declared locale, time zone and
 * encoding (LC_ALL, TZ, PYTHONIOENCODING: the entrypoint's execution context, never the host's),
 * plus each name the policy lets it pass.
 */
import type { BuiltinContext } from '../../core/run/index.js';

const CONTEXT = new Set(['LC_ALL', 'TZ', 'PYTHONIOENCODING']);

export function childEnv(ctx: BuiltinContext, drop: (name: string) => boolean = () => false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (drop(name)) continue;
    if (name === 'PATH' || CONTEXT.has(name) || ctx.policy.checkEnv(name).allowed) env[name] = value;
  }
  return env;
}
