export interface VerifyPinsOptions {
  readonly lock?: string;
  readonly minSigners?: number;
  /** Verify the index (the tree being committed) instead of the working tree. */
  readonly staged?: boolean;
  /** Verify this commit's tree instead of the working tree. */
  readonly rev?: string;
  /** Also ask each pulled skill's origin for its current resource set (starts recorded MCP servers). */
  readonly remote?: boolean;
}
