import { isAbsolute, join } from 'node:path';
import { readAgentSkill, renderAvailableSkills, type PromptSkill } from '../../core/agent-skills/index.js';
import { diag, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { expandInputs } from '../inputs.js';
import { renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import { pushAll } from '../../core/findings.js';

export async function run(ctx: Context, args: readonly string[]): Promise<number> {
  const expanded = await expandInputs(ctx.io.cwd, args);
  const diagnostics: Diagnostic[] = [...expanded.diagnostics];
  const dirs = expanded.targets.flatMap((t) => (t.kind === 'agent-skill' ? [t.dir] : []));
  if (dirs.length === 0 && expanded.diagnostics.length === 0) {
    diagnostics.push(diag('NO_INPUT', `no SKILL.md under ${args.join(', ')}`, { hint: 'skill.yaml bundles get a SKILL.md with skillctl convert' }));
  }
  const skills: PromptSkill[] = [];
  const seen = new Map<string, string>();
  for (const dir of dirs) {
    const r = await readAgentSkill(isAbsolute(dir) ? dir : join(ctx.io.cwd, dir), dir);
    pushAll(diagnostics, r.diagnostics);
    if (r.properties === undefined || r.location === undefined) continue;
    const first = seen.get(r.properties.name);
    if (first !== undefined) {
      diagnostics.push(
        diag('AGENT_SKILL_NAME_DUPLICATE', `skill name ${JSON.stringify(r.properties.name)} is also used by ${first}`, {
          file: r.file,
          hint: 'agents tell skills apart by name; rename one of them',
        }),
      );
    } else seen.set(r.properties.name, r.file);
    skills.push({ name: r.properties.name, description: r.properties.description, location: r.location });
  }
  const all = sortDiagnostics(diagnostics);
  const code = exitCodeFor(all);
  if (ctx.opts.json) {
    ctx.out(renderJson(code === 0 ? { skills, diagnostics: all } : { skills: [], diagnostics: all }).trimEnd());
    return code;
  }
  if (all.length > 0) (code === 0 ? ctx.note : ctx.error)(renderGrouped(all, { style: ctx.style }));
  // Fail closed: a catalogue missing a skill the user named is worse than none.
  if (code === 0) ctx.out(renderAvailableSkills(skills));
  return code;
}
