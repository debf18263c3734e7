/** `skillctl registry list|match|load`: the registry in use (see registry-location.ts), its index, one core call each. */
import { CODES } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { loadCapability, matchIntent, readIndex, summaryOf, type CapabilityBundle, type RegistryIndex, type RegistryLocation } from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { registryFor } from '../../registry-location.js';
import { renderBundles, renderList, renderLoadError, renderMatches, type RegistryRenderOptions } from '../../render/registry.js';
import { matchLimit, type MatchOptions, type RegistryOptions } from './options.js';

function view(ctx: Context): RegistryRenderOptions {
  return { json: ctx.opts.json, style: ctx.style };
}

async function openIndex(ctx: Context, flag: string | undefined): Promise<{ where: RegistryLocation; index: RegistryIndex }> {
  const where = await registryFor(ctx, flag);
  const read = await readIndex(where.dir);
  if (!read.ok) {
    const first = read.diagnostics[0];
    throw new SkillctlError(first?.code ?? 'REGISTRY_INDEX_INVALID', `${first?.message ?? 'the registry cannot be read'}${first?.pointer !== undefined ? ` at ${first.pointer}` : ''}`, {
      hint: where.source === 'flag' ? 'check the --registry path' : `registry chosen from ${where.source}: ${where.dir}`,
    });
  }
  ctx.note(ctx.style.dim(`registry: ${where.dir} (${where.source})`));
  return { where, index: read.index };
}

export async function list(ctx: Context, opts: RegistryOptions): Promise<number> {
  const { index } = await openIndex(ctx, opts.registry);
  ctx.out(renderList(index.capabilities.map(summaryOf), view(ctx)));
  return EXIT.ok;
}

export async function match(ctx: Context, text: string, opts: MatchOptions): Promise<number> {
  const limit = matchLimit(opts);
  const { index } = await openIndex(ctx, opts.registry);
  const all = matchIntent(index.capabilities, text);
  ctx.out(renderMatches(text, limit !== undefined ? all.slice(0, limit) : all, view(ctx)));
  return EXIT.ok;
}

export async function load(ctx: Context, ids: readonly string[], opts: RegistryOptions): Promise<number> {
  const { where, index } = await openIndex(ctx, opts.registry);
  const bundles: CapabilityBundle[] = [];
  for (const id of ids) {
    const r = await loadCapability(where.dir, index, id);
    if (!r.ok) {
      // The protocol's error document: on stdout with --json, else on stderr.
      (ctx.opts.json ? ctx.out : ctx.error)(renderLoadError(r.error, view(ctx)));
      return EXIT[CODES[r.error.code].exit];
    }
    bundles.push(r.bundle);
  }
  ctx.out(renderBundles(bundles, view(ctx)));
  return EXIT.ok;
}
