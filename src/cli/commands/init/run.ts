/** `skillctl init [DIR]`: answers from the flags or from questions, then one core call that creates the skill. */
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { ScriptRuntime } from '../../../core/agent-skills/index.js';
import { createSkill, type SkillFormat } from '../../../core/scaffold/index.js';
import type { Context } from '../../context.js';
import { EXIT, exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { initJson, renderCreated, renderNotCreated } from '../../render/init.js';
import { detectRuntimeVersion } from '../../runtime-versions.js';
import { askAnswers } from './ask.js';
import { answersFromFlags, toSpec, type InitOptions } from './options.js';

export async function run(ctx: Context, dirArg: string | undefined, opts: InitOptions): Promise<number> {
  // The version a new entrypoint pins: the flag, else the interpreter on this machine.
  const versionFor = (format: SkillFormat, runtime: ScriptRuntime | 'none'): string | undefined =>
    format !== 'manifest' || runtime === 'none' ? undefined : (opts.runtimeVersion ?? detectRuntimeVersion(ctx.io, runtime));
  const interactive = opts.yes !== true && !ctx.opts.json && ctx.io.stdin.isTTY === true && ctx.io.stdout.isTTY === true;
  const answers = interactive ? await askAnswers(ctx, dirArg, opts, { versionFor }) : answersFromFlags(dirArg, opts, { cwd: ctx.io.cwd, versionFor });
  if (answers === undefined) {
    ctx.note('nothing was written');
    return EXIT.ok;
  }
  const label = dirArg ?? answers.id;
  const target = isAbsolute(label) ? label : join(ctx.io.cwd, label);
  const spec = toSpec(answers, opts, basename(resolve(target)));
  const created = await createSkill({ target, label, spec, force: opts.force === true });
  if (created.value === undefined) {
    const text = renderNotCreated(created.diagnostics, { json: ctx.opts.json, style: ctx.style });
    if (ctx.opts.json) ctx.out(text);
    else ctx.error(text);
    return exitCodeFor(created);
  }
  const { files } = created.value;
  if (ctx.opts.json) {
    ctx.out(initJson(label, spec, files, created.diagnostics));
    return EXIT.ok;
  }
  if (created.diagnostics.length > 0) ctx.note(renderGrouped(created.diagnostics, { style: ctx.style }));
  ctx.out(renderCreated(label, spec, files));
  return EXIT.ok;
}
