import { join } from 'node:path';
import { locateRegistry, type RegistryLocation } from '../core/registry/index.js';
import type { Context } from './context.js';
import { packageRoot } from './package-root.js';

/** The registry shipped inside the skillctl package. */
export function shippedRegistry(): string {
  return join(packageRoot(), 'manifests', 'registry');
}

/** The registry a command uses: --registry, $SKILLCTL_REGISTRY, the project's, the shipped one. */
export function registryFor(ctx: Context, flag: string | undefined, forWrite = false): Promise<RegistryLocation> {
  const env = ctx.io.env.SKILLCTL_REGISTRY;
  return locateRegistry({
    cwd: ctx.io.cwd,
    ...(flag !== undefined ? { flag } : {}),
    ...(env !== undefined && env !== '' ? { env } : {}),
    shipped: shippedRegistry(),
    forWrite,
  });
}
