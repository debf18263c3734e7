export interface PullOptions {
  /** The folder the skill's own folder is made in. */
  readonly out?: string;
  /** oci://: allow plain HTTP to a registry that is not on loopback. */
  readonly plainHttp?: boolean;
  /** Replace a folder that holds other content. */
  readonly force?: boolean;
  /** oci://: distinct trusted signers required (with --keys). */
  readonly minSigners?: number;
  /** oci://: the public-keys file trusted signers are read from. */
  readonly keys?: string;
  /** oci://: seconds the whole exchange with the registry may take (default: no limit). */
  readonly timeout?: number;
}

/** The schemes `pull` takes, each handled by its own module. */
export const PULL_SCHEMES = ['oci://', 'skill://'] as const;
