import { join, relative, sep } from 'node:path';
import { SkillctlError } from '../core/errors.js';
import { locateRegistryLayers, readRegistryView, type RegistryLocation, type RegistrySource, type RegistryView } from '../core/registry/index.js';
import type { Context } from './context.js';
import { packageRoot } from './package-root.js';

/** The registry shipped inside the skillctl package. */
export function shippedRegistry(): string {
  return join(packageRoot(), 'manifests', 'registry');
}

/**
 * The registries a command uses, upper first: --registry or $SKILLCTL_REGISTRY alone, else the
 * project's over the shipped one, else the shipped one. With `forWrite`, the first is where a
 * publish writes.
 */
export function registryLayersFor(ctx: Context, flag: string | undefined, forWrite = false): Promise<RegistryLocation[]> {
  const env = ctx.io.env.SKILLCTL_REGISTRY;
  return locateRegistryLayers({
    cwd: ctx.io.cwd,
    ...(flag !== undefined ? { flag } : {}),
    ...(env !== undefined && env !== '' ? { env } : {}),
    shipped: shippedRegistry(),
    forWrite,
  });
}

const ORIGIN: Record<RegistrySource, string> = { flag: '--registry', env: '$SKILLCTL_REGISTRY', project: 'project', shipped: 'shipped' };

/** How a registry is named in notes: its path (relative when inside the working directory) and where it came from. */
export function describeRegistry(ctx: Context, where: RegistryLocation): string {
  const rel = relative(ctx.io.cwd, where.dir);
  const shown = rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : where.dir;
  return `${shown} (${ORIGIN[where.source]})`;
}

/** The stderr note naming the registries in use, upper first. */
export function registriesNote(ctx: Context, layers: readonly RegistryLocation[]): string {
  return `registry: ${layers.map((l) => describeRegistry(ctx, l)).join(', over ')}`;
}

/** Reads the view of `layers`; a layer that cannot be read stops the command with its finding. */
export async function openView(ctx: Context, layers: readonly RegistryLocation[]): Promise<RegistryView> {
  const read = await readRegistryView(layers);
  if (!read.ok) {
    const first = read.diagnostics[0];
    const where = read.location;
    throw new SkillctlError(first?.code ?? 'REGISTRY_INDEX_INVALID', `${first?.message ?? 'the registry cannot be read'}${first?.pointer !== undefined ? ` at ${first.pointer}` : ''}`, {
      hint: where.source === 'flag' ? 'check the --registry path' : `registry chosen from ${where.source}: ${where.dir}`,
    });
  }
  return read.view;
}
