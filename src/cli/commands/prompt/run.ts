/** `skillctl prompt [DIR...]`: the SKILL.md folders the arguments (or the skill roots) hold, read by one core call, as one block. */
import { isAbsolute, join } from 'node:path';
import { readPromptSkills } from '../../../core/agent-skills/index.js';
import { diag, sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { expandInputs } from '../../inputs.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { promptJson, renderPrompt } from '../../render/prompt.js';
import { skillRootInputs } from '../../skill-roots.js';

export async function run(ctx: Context, args: readonly string[]): Promise<number> {
  // No folder named: the skill roots (or the skill folder the user is in); see ../../skill-roots.ts.
  const roots = args.length === 0 ? await skillRootInputs(ctx.io.cwd) : undefined;
  if (roots?.note !== undefined) ctx.note(ctx.style.dim(roots.note));
  const searched = roots?.args ?? args;
  const expanded = await expandInputs(ctx.io.cwd, searched);
  const dirs = expanded.targets.flatMap((t) => (t.kind === 'agent-skill' ? [{ dir: isAbsolute(t.dir) ? t.dir : join(ctx.io.cwd, t.dir), label: t.dir }] : []));
  const inputErrors: Diagnostic[] = [...(roots?.diagnostics ?? []), ...expanded.diagnostics];
  if (dirs.length === 0 && expanded.diagnostics.length === 0) {
    inputErrors.push(diag('NO_INPUT', `no SKILL.md under ${searched.join(', ')}`, { hint: 'skill.yaml bundles get a SKILL.md with skillctl convert' }));
  }
  const catalogue = await readPromptSkills(dirs);
  const all = sortDiagnostics([...inputErrors, ...catalogue.diagnostics]);
  const code = exitCodeFor({ diagnostics: all });
  if (ctx.opts.json) {
    ctx.out(promptJson(catalogue.skills, all, code));
    return code;
  }
  if (all.length > 0) (code === 0 ? ctx.note : ctx.error)(renderGrouped(all, { style: ctx.style }));
  if (code === 0) ctx.out(renderPrompt(catalogue.skills));
  return code;
}
