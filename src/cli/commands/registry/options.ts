import { SkillctlError } from '../../../core/errors.js';

export interface RegistryOptions {
  /** --registry DIR */
  readonly registry?: string;
}

export interface MatchOptions extends RegistryOptions {
  readonly limit?: string;
}

export interface PublishOptions extends RegistryOptions {
  /** oci:// sources: allow plain HTTP to a registry that is not on loopback. */
  readonly plainHttp?: boolean;
  /** oci:// sources: distinct trusted signers each artifact needs (with --keys). */
  readonly minSigners?: number;
  /** oci:// sources: the public-keys file trusted signers are read from. */
  readonly keys?: string;
  /** oci:// sources: seconds the whole exchange with their registries may take (default: no limit). */
  readonly timeout?: number;
}

/** --limit N: a positive integer, or no limit. */
export function matchLimit(opts: MatchOptions): number | undefined {
  if (opts.limit === undefined) return undefined;
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new SkillctlError('USAGE', `--limit must be a positive integer, not ${JSON.stringify(opts.limit)}`);
  return limit;
}
