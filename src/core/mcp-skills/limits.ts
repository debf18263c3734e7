/** What a pull takes from one server at most: a hostile server meets a bound, never the host's memory. */
export interface PullLimits {
  /** Bytes of one file (the server of `skillctl mcp` serves at most 16 MiB a file). */
  readonly fileBytes: number;
  /** Bytes of one skill, every file together. */
  readonly totalBytes: number;
  /**
   * Bytes read by one pull, every skill together (an `--all` of many skills each within
   * `totalBytes`): the verified skills are all held until they are placed, together or not at all.
   */
  readonly pullBytes: number;
  /** Files of one skill. */
  readonly files: number;
  /** Skills of one `--all`. */
  readonly skills: number;
  /** Pages of one listing (skills/list, resources/list, resources/directory/read of one skill). */
  readonly pages: number;
  /** Resources taken from `resources/list` and the directory walk together. */
  readonly listed: number;
}

export const DEFAULT_PULL_LIMITS: PullLimits = {
  fileBytes: 16 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
  pullBytes: 256 * 1024 * 1024,
  files: 10_000,
  skills: 1_000,
  pages: 1_000,
  listed: 100_000,
};

/** The hint of MCP_PULL_TOO_LARGE: what a user can do about the pull's bound. */
export const PULL_FEWER = 'pull fewer skills at a time, by their URIs';

/**
 * The largest JSON-RPC message taken: a file of `fileBytes` as base64 (4/3) inside its JSON
 * envelope, with room for escapes of a text file (a `"` or `\` is two bytes in JSON; a control
 * character six, which a file of them would need: such a file is refused as too large).
 */
export function maxMessageBytes(limits: PullLimits): number {
  return Math.ceil(limits.fileBytes * 2) + 64 * 1024;
}
