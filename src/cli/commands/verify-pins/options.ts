import type { TokenFor } from './mcp-tokens.js';

export interface VerifyPinsOptions {
  readonly lock?: string;
  readonly minSigners?: number;
  /** Verify the index (the tree being committed) instead of the working tree. */
  readonly staged?: boolean;
  /** Verify this commit's tree instead of the working tree. */
  readonly rev?: string;
  /** With --staged or --rev: compare the lock with this commit's lock (trust anchors, signers, roots, pinned digests). */
  readonly base?: string;
  /** Also ask each pinned origin whether it moved: an OCI tag still resolving to the pinned digest, an MCP server's resource set (starts recorded MCP servers). */
  readonly remote?: boolean;
  /** With --remote: start the MCP server programs the lock records (else each is reported, not started). */
  readonly startServers?: boolean;
  /** With --remote: contact origins whose host is not a public address (else each is reported, not contacted). */
  readonly privateOrigins?: boolean;
  /** With --remote: seconds the whole remote part may take, every registry exchange and MCP server session together. */
  readonly timeout?: number;
  /** With --remote: bearer tokens, each sent only to the MCP server URLs of its origin. */
  readonly mcpTokenFile?: readonly TokenFor[];
}
