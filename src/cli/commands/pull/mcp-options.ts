import { SkillctlError } from '../../../core/errors.js';
import { parseSkillUri, splitCommand, type PullRequest, type ServerAddress } from '../../../core/mcp-skills/index.js';

/** `--timeout`'s default for skill://: seconds each request to the server may take. */
export const MCP_TIMEOUT_SECONDS = 30;

export interface McpPullOptions {
  readonly mcp?: string;
  readonly mcpUrl?: string;
  readonly all?: boolean;
  readonly out?: string;
  /** Seconds each request may take (default MCP_TIMEOUT_SECONDS). */
  readonly timeout?: number;
  /** The file holding the bearer token sent to the --mcp-url server. */
  readonly mcpTokenFile?: string;
}

/** The server: `--mcp` split into words without a shell, or `--mcp-url` (http or https, no credentials in it). */
export function serverOf(opts: McpPullOptions): ServerAddress {
  if ((opts.mcp === undefined) === (opts.mcpUrl === undefined)) {
    throw new SkillctlError('USAGE', 'skill:// needs the server: give --mcp COMMAND or --mcp-url URL (one of them)', { hint: "--mcp 'skillctl mcp --skills skills'" });
  }
  // A token goes only to the server the user named with it: never to a program (which has no
  // use for a header), and never implicitly from $SKILLCTL_MCP_TOKEN, the secret of the user's
  // own `mcp --http` server, which a pull of an arbitrary URL would hand to whoever serves it.
  if (opts.mcpTokenFile !== undefined && opts.mcpUrl === undefined) {
    throw new SkillctlError('USAGE', '--mcp-token-file is the token sent to the --mcp-url server, and --mcp-url is not given');
  }
  if (opts.mcp !== undefined) {
    const split = splitCommand(opts.mcp);
    if ('problem' in split) throw new SkillctlError('USAGE', `--mcp: ${split.problem}`, { hint: "quote the command as one argument: --mcp 'server --flag value'" });
    return { command: split.argv };
  }
  let url: URL;
  try {
    url = new URL(opts.mcpUrl as string);
  } catch {
    throw new SkillctlError('USAGE', `--mcp-url: ${opts.mcpUrl ?? ''} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SkillctlError('USAGE', `--mcp-url: ${url.protocol} is not http: or https:`);
  // The URL is recorded in the origin records and the lock: a password there would be committed.
  if (url.username !== '' || url.password !== '') throw new SkillctlError('USAGE', '--mcp-url: a URL with a user name or password is refused; it would be recorded in the project');
  return { url: url.href };
}

/** The skills asked for: the URIs (each a skill:// SKILL.md URI, each once), or --all. */
export function requestOf(refs: readonly string[], opts: McpPullOptions): PullRequest {
  if (opts.all === true) {
    if (refs.length > 0) throw new SkillctlError('USAGE', '--all pulls every listed skill: give no URI with it');
    return { all: true };
  }
  if (refs.length === 0) throw new SkillctlError('USAGE', 'name the skills to pull (skill://PATH/SKILL.md), or pass --all');
  for (const r of refs) {
    const p = parseSkillUri(r);
    if ('problem' in p) throw new SkillctlError('USAGE', p.problem, { hint: 'a skill URI is skill://<skill-path>/SKILL.md' });
  }
  if (new Set(refs).size !== refs.length) throw new SkillctlError('USAGE', 'a URI is given twice');
  return { uris: refs };
}
