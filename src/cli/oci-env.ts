/**
 * What an OCI command takes from its process: the cache directory (`$XDG_CACHE_HOME/skillctl`,
 * else `~/.cache/skillctl`) and the Docker config file (`$DOCKER_CONFIG/config.json`, else
 * `~/.docker/config.json`), so the core never reads the environment.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { BlobCache, loadDockerCredentials, type TransportOptions } from '../core/oci/index.js';
import type { CliIO } from './io.js';

function home(io: CliIO): string {
  const h = io.env.HOME;
  return h !== undefined && h !== '' ? h : homedir();
}

/** The cache directory; a relative XDG_CACHE_HOME is ignored, as the XDG spec says. */
export function cacheRoot(io: CliIO): string {
  const xdg = io.env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home(io), '.cache'), 'skillctl');
}

export function blobCache(io: CliIO): BlobCache {
  return new BlobCache(cacheRoot(io));
}

export function dockerConfigPath(io: CliIO): string {
  const dir = io.env.DOCKER_CONFIG;
  return join(dir !== undefined && dir !== '' ? dir : join(home(io), '.docker'), 'config.json');
}

export async function transportOptions(io: CliIO, opts: { readonly plainHttp?: boolean }): Promise<TransportOptions> {
  return { credentials: await loadDockerCredentials(dockerConfigPath(io)), ...(opts.plainHttp === true ? { plainHttp: true } : {}) };
}
