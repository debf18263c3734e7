/** `skillctl registry list|match|load`: the registries in use (see registry-location.ts), read as one view, one core call each. */
import { CODES } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { loadFromView, matchBound, matchIntent, viewEntries, type CapabilityBundle, type RegistryView } from '../../../core/registry/index.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit.js';
import { openView, registriesNote, registryLayersFor } from '../../registry-location.js';
import { renderBundles, renderList, renderLoadError, renderMatches, type RegistryRenderOptions } from '../../render/registry.js';
import { matchLimit, type MatchOptions, type RegistryOptions } from './options.js';

function view(ctx: Context): RegistryRenderOptions {
  return { json: ctx.opts.json, style: ctx.style };
}

async function open(ctx: Context, flag: string | undefined): Promise<RegistryView> {
  const layers = await registryLayersFor(ctx, flag);
  const v = await openView(ctx, layers);
  ctx.note(ctx.style.dim(registriesNote(ctx, layers)));
  return v;
}

export async function list(ctx: Context, opts: RegistryOptions): Promise<number> {
  const v = await open(ctx, opts.registry);
  ctx.out(renderList(v.capabilities, view(ctx)));
  return EXIT.ok;
}

export async function match(ctx: Context, text: string, opts: MatchOptions): Promise<number> {
  const limit = matchLimit(opts);
  const v = await open(ctx, opts.registry);
  const entries = viewEntries(v);
  const bound = matchBound(entries);
  if (bound !== undefined) throw new SkillctlError(bound.code, bound.message, { hint: 'match against a registry of fewer capabilities (--registry DIR, $SKILLCTL_REGISTRY)' });
  const all = matchIntent(entries, text);
  ctx.out(renderMatches(text, limit !== undefined ? all.slice(0, limit) : all, view(ctx)));
  return EXIT.ok;
}

export async function load(ctx: Context, ids: readonly string[], opts: RegistryOptions): Promise<number> {
  const v = await open(ctx, opts.registry);
  const bundles: CapabilityBundle[] = [];
  for (const id of ids) {
    const r = await loadFromView(v, id);
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
