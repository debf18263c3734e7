/** `skillctl convert DIR`: SKILL.md folder to skill.yaml bundle, or back, in one core call. */
import { isAbsolute, join } from 'node:path';
import { convertSkillDir } from '../../../core/agent-skills/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { convertJson, renderConverted } from '../../render/convert.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { detectRuntimeVersion } from '../../runtime-versions.js';
import { versionFlag, type ConvertOptions } from './options.js';

export async function run(ctx: Context, dirArg: string, opts: ConvertOptions): Promise<number> {
  const r = await convertSkillDir({
    dir: isAbsolute(dirArg) ? dirArg : join(ctx.io.cwd, dirArg),
    label: dirArg,
    ...(opts.to !== undefined ? { to: opts.to } : {}),
    force: opts.force === true,
    nameCharset: opts.nameCharset ?? 'ascii',
    ...(opts.id !== undefined ? { id: opts.id } : {}),
    ...(opts.skillVersion !== undefined ? { skillVersion: opts.skillVersion } : {}),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    runtimeVersion: (runtime) => versionFlag(opts, runtime) ?? detectRuntimeVersion(ctx.io, runtime),
  });
  const code = exitCodeFor(r);
  if (ctx.opts.json) {
    ctx.out(convertJson(r.value, r.diagnostics));
    return code;
  }
  if (r.diagnostics.length > 0) (code === 0 ? ctx.note : ctx.error)(renderGrouped(r.diagnostics, { style: ctx.style }));
  if (r.value !== undefined) ctx.out(renderConverted(r.value));
  return code;
}
