/**
 * What an OCI command takes from its process: the cache directory (`$XDG_CACHE_HOME/skillctl`,
 * else `~/.cache/skillctl`) and the Docker config file (`$DOCKER_CONFIG/config.json`, else
 * `~/.docker/config.json`), so the core never reads the environment.
 */
import { isAbsolute, join } from 'node:path';
import { SkillctlError } from '../core/errors.js';
import { readInputFile } from '../core/fs/index.js';
import { BlobCache, Deadline, loadDockerCredentials, type TransportOptions } from '../core/oci/index.js';
import { KEYS_MAX_BYTES, loadPublicKeys, type PublicKey } from '../core/sign/index.js';
import { homeDir } from './home.js';
import type { CliIO } from './io.js';

/** The cache directory; a relative XDG_CACHE_HOME is ignored, as the XDG spec says. */
export function cacheRoot(io: CliIO): string {
  const xdg = io.env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homeDir(io), '.cache'), 'skillctl');
}

export function blobCache(io: CliIO): BlobCache {
  return new BlobCache(cacheRoot(io));
}

export function dockerConfigPath(io: CliIO): string {
  const dir = io.env.DOCKER_CONFIG;
  return join(dir !== undefined && dir !== '' ? dir : join(homeDir(io), '.docker'), 'config.json');
}

/** The transport of an OCI command: its credentials, `--plain-http`, and `--timeout` as the deadline of its whole registry exchange. */
export async function transportOptions(io: CliIO, opts: { readonly plainHttp?: boolean; readonly timeout?: number }): Promise<TransportOptions> {
  return {
    credentials: await loadDockerCredentials(dockerConfigPath(io)),
    ...(opts.plainHttp === true ? { plainHttp: true } : {}),
    ...(opts.timeout !== undefined ? { deadline: new Deadline(opts.timeout) } : {}),
  };
}

/** `--min-signers N --keys FILE`: the trusted keys, or undefined when no signer is asked for. */
export async function trustedKeys(io: CliIO, opts: { readonly minSigners?: number; readonly keys?: string }): Promise<ReadonlyMap<string, PublicKey> | undefined> {
  if ((opts.minSigners ?? 0) === 0) return undefined;
  if (opts.keys === undefined) throw new SkillctlError('USAGE', '--min-signers needs --keys FILE, the public keys it trusts');
  const bytes = await readInputFile(isAbsolute(opts.keys) ? opts.keys : join(io.cwd, opts.keys), opts.keys, { maxBytes: KEYS_MAX_BYTES });
  const loaded = loadPublicKeys(bytes, opts.keys);
  if (loaded.diagnostics.length > 0) throw new SkillctlError('KEYS_INVALID', loaded.diagnostics[0]?.message ?? `${opts.keys} is not a keys file`);
  return loaded.keys;
}
