export interface VerifyPinsOptions {
  readonly lock?: string;
  readonly minSigners?: number;
  /** Verify the index (the tree being committed) instead of the working tree. */
  readonly staged?: boolean;
  /** Verify this commit's tree instead of the working tree. */
  readonly rev?: string;
  /** Also ask each pinned origin (an OCI registry) whether its tag still resolves to the pinned digest. */
  readonly remote?: boolean;
}
