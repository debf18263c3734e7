import type { CodeCatalogue } from '../code-spec.js';

/**
 * `pull skill://…`: taking a skill from an MCP server through the Skills extension (SEP-2640).
 * A server that cannot be used is exit 2 (`usage`); anything the server says that does not hold
 * (a digest, a size, the frontmatter, the file set, a URI) is a verification finding, exit 1.
 */
export const MCP_SKILL_CODES = {
  // The server cannot be used.
  MCP_PULL_SERVER_UNAVAILABLE: {
    severity: 'error',
    title: 'The MCP server could not be started or reached, or closed the connection.',
    exit: 'usage',
  },
  MCP_PULL_SERVER_UNAUTHORIZED: {
    severity: 'error',
    title: 'The MCP server answered 401 Unauthorized: it wants a bearer token (--mcp-token-file), or refused the one sent.',
    exit: 'usage',
  },
  MCP_PULL_SERVER_TIMEOUT: { severity: 'error', title: 'The MCP server did not answer within the time limit.', exit: 'usage' },
  MCP_PULL_SERVER_NOT_STARTED: {
    severity: 'error',
    title: 'verify-pins --remote: a pin\'s MCP server is a program the lock records, started only with --start-servers.',
    exit: 'usage',
  },
  MCP_PULL_NOT_SUPPORTED: {
    severity: 'error',
    title: 'The MCP server does not declare the Skills extension (io.modelcontextprotocol/skills) with the resources capability.',
    exit: 'usage',
  },
  MCP_PULL_SERVER_ERROR: { severity: 'error', title: 'The MCP server answered a request with a JSON-RPC error.', exit: 'usage' },
  MCP_PULL_SKILL_NOT_FOUND: { severity: 'error', title: 'The server does not serve the skill URI given (skills/get answered -32602).', exit: 'usage' },
  MCP_PULL_RESPONSE_INVALID: {
    severity: 'error',
    title: 'An answer of the server does not have the shape the extension defines.',
    exit: 'usage',
  },

  // Verification findings: the skill is not written.
  MCP_PULL_NO_DIGESTS: {
    severity: 'error',
    title: 'The skill entry has no resources list, so its files cannot be verified.',
    exit: 'findings',
  },
  MCP_PULL_NAME_MISMATCH: {
    severity: 'error',
    title: "The last segment of the skill's path differs from the frontmatter name.",
    exit: 'findings',
  },
  MCP_PULL_URI_REFUSED: {
    severity: 'error',
    title: 'A resource URI is not a clean file path inside the skill (.., an encoded separator, another skill or scheme).',
    exit: 'findings',
  },
  MCP_PULL_RESOURCE_DUPLICATE: {
    severity: 'error',
    title: 'The entry lists one file twice, or two files that would land on one path.',
    exit: 'findings',
  },
  MCP_PULL_FILE_UNLISTED: {
    severity: 'error',
    title: "The server shows a file under the skill that the entry's resources leave out.",
    exit: 'findings',
  },
  MCP_PULL_DIGEST_MISMATCH: { severity: 'error', title: 'A file read differs from the digest its entry gives.', exit: 'findings' },
  MCP_PULL_SIZE_MISMATCH: { severity: 'error', title: 'A file read differs in size from the size its entry gives.', exit: 'findings' },
  MCP_PULL_FRONTMATTER_MISMATCH: {
    severity: 'error',
    title: "The frontmatter of the SKILL.md read differs from the entry's frontmatter.",
    exit: 'findings',
  },
  MCP_PULL_FILE_TOO_LARGE: { severity: 'error', title: 'A file of the skill is larger than a pull reads.', exit: 'findings' },
  MCP_PULL_SKILL_TOO_LARGE: {
    severity: 'error',
    title: 'The skill has more files, or more bytes in all, than a pull takes.',
    exit: 'findings',
  },
  MCP_PULL_TOO_LARGE: { severity: 'error', title: 'The skills of one pull hold more bytes in all than a pull reads.', exit: 'findings' },
  MCP_PULL_TOO_MANY_SKILLS: { severity: 'error', title: 'The listing holds more skills, or pages, than pull --all takes.', exit: 'findings' },
  MCP_PULL_NAME_COLLISION: {
    severity: 'error',
    title: 'A skill of that name already exists from another origin (a local skill, another server or another URI).',
    exit: 'findings',
  },
  MCP_PULL_RECOVERED: {
    severity: 'warning',
    title: 'A pull that stopped between its renames (its process died) was finished or undone before this command went on.',
    exit: 'findings',
  },

  // Pins of pulled skills.
  MCP_PIN_ORIGIN_STALE: {
    severity: 'warning',
    title: 'A pulled skill folder no longer holds the files it was pulled with; it is pinned without its origin.',
    exit: 'findings',
  },
  MCP_PIN_DRIFT: {
    severity: 'error',
    title: "The server's current entry for a pinned skill lists another resource set than the pin (verify-pins --remote).",
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;

export type McpSkillCode = keyof typeof MCP_SKILL_CODES;
