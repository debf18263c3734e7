import { isAbsolute, join } from 'node:path';
import { sortDiagnostics } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { findProjectRoot } from '../../../core/fs/index.js';
import { publishCapabilities, type PublishedCapability } from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { count, plural, renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import { registryFor } from '../../registry-location.js';
import { runSkillResolver } from '../../skill-resolver.js';
import type { PublishOptions } from './options.js';

function resultJson(c: PublishedCapability, published: boolean): Record<string, unknown> {
  return {
    dir: c.label,
    capability_id: c.validation.capability_id ?? null,
    valid: c.validation.valid,
    published: published && c.entry !== undefined,
    unchanged: c.unchanged === true,
    digest: c.entry?.digest ?? null,
    diagnostics: c.validation.diagnostics,
  };
}

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
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        registry: where.dir,
        published: result.published && !dryRun,
        results: result.capabilities.map((c) => resultJson(c, result.published && !dryRun)),
        ...(result.capabilities.length === 0 ? { diagnostics: all } : {}),
      }).trimEnd(),
    );
    return code;
  }
  const shown = ctx.opts.quiet ? all.filter((d) => d.severity === 'error') : all;
  if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
  const c = count(all);
  const tally = `${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
  if (dryRun) {
    const bad = result.capabilities.filter((r) => !r.validation.valid).length;
    ctx.out(`${code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')}${dirs.length} ${dirs.length === 1 ? 'capability' : 'capabilities'} checked: ${bad === 0 && code === 0 ? 'all valid' : `${bad} invalid`}; ${tally}`);
  } else if (result.published) {
    for (const r of result.capabilities) {
      ctx.out(`${ctx.style.green('✔')} ${r.unchanged === true ? 'unchanged' : 'published'} ${r.entry?.capability_id ?? r.label} (${r.entry?.digest ?? ''})`);
    }
  } else {
    ctx.out(`${ctx.style.red('✖')} nothing published; ${tally}`);
  }
  return code;
}
