/** `skillctl registry validate|publish DIR...`: checked as publish checks them; published atomically unless a dry run. */
import { isAbsolute, join } from 'node:path';
import { sortDiagnostics } from '../../../core/diagnostics.js';
import { InternalError, SkillctlError } from '../../../core/errors.js';
import { publishCapabilities } from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderPublish } from '../../render/registry.js';
import { describeRegistry, openView, registriesNote, registryLayersFor } from '../../registry-location.js';
import { processFileLock, projectRootOf } from '../../project.js';
import { runSkillResolver } from '../../skill-resolver.js';
import type { PulledSources } from './oci-sources.js';
import type { PublishOptions } from './options.js';

const OCI_SCHEME = 'oci://';

/** `registry validate` (dryRun) and `registry publish`. */
export async function run(ctx: Context, dirs: readonly string[], opts: PublishOptions, dryRun: boolean): Promise<number> {
  // validate checks as publish would, into the registry publish would write (which may not exist yet).
  const [where, ...beneath] = await registryLayersFor(ctx, opts.registry, true);
  if (where === undefined) throw new InternalError('no registry located');
  if (!dryRun && !where.writable) {
    throw new SkillctlError('REGISTRY_READ_ONLY', `no registry to publish into: the one in use is the registry shipped with skillctl (${where.dir})`, {
      hint: 'pass --registry DIR, set SKILLCTL_REGISTRY, or run inside a project (a directory with skillctl.policy.yaml or pins/skills.lock.json)',
    });
  }
  // The layers a publish lies over: what it may shadow, and whose tool names it must not reuse.
  const lower = beneath.length > 0 ? (await openView(ctx, beneath)).capabilities : [];
  ctx.note(ctx.style.dim(registriesNote(ctx, [where, ...beneath])));
  const anyOci = dirs.some((d) => d.startsWith(OCI_SCHEME));
  if (!anyOci && (opts.plainHttp === true || opts.minSigners !== undefined || opts.keys !== undefined || opts.timeout !== undefined)) {
    throw new SkillctlError('USAGE', '--plain-http, --min-signers, --keys and --timeout apply to oci:// sources, and none is given');
  }
  const resolve = (d: string): string => (isAbsolute(d) ? d : join(ctx.io.cwd, d));
  // oci:// artifacts are pulled (and verified) into a scratch folder first; the rest are read where they are.
  const pulled: PulledSources = anyOci
    ? await (await import('./oci-sources.js')).pullSources(ctx, dirs, opts, resolve)
    : { sources: dirs.map((d) => ({ dir: resolve(d), label: d })), dispose: async (): Promise<void> => {} };
  let result;
  try {
    result = await publishCapabilities(
      where.dir,
      pulled.sources.map((s) => s.dir),
      { labels: pulled.sources.map((s) => s.label), verified: pulled.sources.map((s) => s.verified), skills: runSkillResolver(ctx, await projectRootOf(ctx)), create: true, dryRun, beneath: lower, fileLock: processFileLock() },
    );
  } finally {
    await pulled.dispose();
  }
  const all = sortDiagnostics(result.diagnostics);
  const code = exitCodeFor({ diagnostics: all });
  const text = renderPublish(result, all, {
    json: ctx.opts.json,
    style: ctx.style,
    quiet: ctx.opts.quiet,
    registry: where.dir,
    origin: where.source,
    registryLabel: describeRegistry(ctx, where),
    dryRun,
    dirs: dirs.length,
    exitCode: code,
  });
  if (text !== '') ctx.out(text);
  return code;
}
