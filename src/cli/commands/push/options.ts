export interface PushOptions {
  /** Allow plain HTTP to a registry that is not on loopback. */
  readonly plainHttp?: boolean;
  /** Sign the manifest digest with this secret key file (with --signer). */
  readonly sign?: string;
  readonly signer?: string;
  /** Upload the layer in chunks of this many MiB (default: one streamed request). */
  readonly chunkMib?: number;
  /** Seconds the whole exchange with the registry may take (default: no limit). */
  readonly timeout?: number;
}

/** `--chunk-mib`: 1 to 1024. */
export function parseChunkMib(value: string): number {
  const n = Number(value);
  if (!/^[1-9][0-9]{0,3}$/.test(value) || n > 1024) throw new Error('an integer from 1 to 1024 is required.');
  return n;
}
