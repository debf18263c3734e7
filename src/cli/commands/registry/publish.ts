/** `skillctl registry validate|publish DIR...`: checked as publish checks them; published atomically unless a dry run. */
import { isAbsolute, join } from 'node:path';
import { sortDiagnostics } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { findProjectRoot } from '../../../core/fs/index.js';
import { publishCapabilities } from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderPublish } from '../../render/registry.js';
import { registryFor } from '../../registry-location.js';
import { runSkillResolver } from '../../skill-resolver.js';
import type { PublishOptions } from './options.js';

/** `registry validate` (dryRun) and `registry publish`. */
export async function run(ctx: Context, dirs: readonly string[], opts: PublishOptions, dryRun: boolean): Promise<number> {
  const where = await registryFor(ctx, opts.registry, !dryRun);
  if (!dryRun && !where.writable) {
    throw new SkillctlError('REGISTRY_READ_ONLY', `no registry to publish into: the one in use is the registry shipped with skillctl (${where.dir})`, {
      hint: 'pass --registry DIR, set SKILLCTL_REGISTRY, or run inside a project (a directory with skillctl.policy.yaml or pins/skills.lock.json)',
    });
  }
  ctx.note(ctx.style.dim(`registry: ${where.dir} (${where.source})`));
  const abs = dirs.map((d) => (isAbsolute(d) ? d : join(ctx.io.cwd, d)));
  const result = await publishCapabilities(where.dir, abs, {
    labels: dirs,
    skills: runSkillResolver(ctx, await findProjectRoot(ctx.io.cwd)),
    create: true,
    dryRun,
  });
  const all = sortDiagnostics(result.diagnostics);
  const code = exitCodeFor({ diagnostics: all });
  const text = renderPublish(result, all, { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, registry: where.dir, dryRun, dirs: dirs.length, exitCode: code });
  if (text !== '') ctx.out(text);
  return code;
}
