import { InvalidArgumentError, type Command } from 'commander';
import { collect } from '../../options.js';
import type { Runner } from '../../context.js';
import type { McpOptions } from './options.js';

export function registerMcp(program: Command, run: Runner): void {
  program
    .command('mcp')
    .description('Serve the capability registry to an agent over MCP (stdio): list, match, load and reload capabilities, and call their tools.')
    .option('--registry <dir>', "exactly this registry to serve (default: $SKILLCTL_REGISTRY, else the project's .skillctl/registry over the shipped one)")
    .option('--approve <list>', 'write tools needing approval that may run: all, capability ids or <capability>__<tool> names; repeatable', collect)
    .option('--policy <file>', 'the host policy tool calls run under (default: skillctl.policy.yaml in the project root)')
    .option('--audit <file>', 'append each tool call\'s audit record here (default: .skillctl/audit.jsonl in the project root)')
    .option('--no-audit', 'do not write audit records (refused calls included)')
    .option('--packs <dir>', 'also offer the operator behaviour packs in DIR through the skill tool (<profile>.yaml files, validated)')
    .option('--skills [dir...]', "also serve Agent Skills (SKILL.md folders) through the MCP Skills extension: those under each DIR, or the project's skill roots")
    .option('--http <host:port>', 'serve over Streamable HTTP at http://HOST:PORT/mcp instead of stdio (HOST defaults to 127.0.0.1; PORT 0 picks one)', parseHttp)
    .option('--http-allow-remote', 'let --http listen on an address other than loopback (anyone who reaches it and holds the token can call the tools)')
    .option('--http-token-file <file>', "the --http server's bearer token, which every request must carry (default: $SKILLCTL_MCP_TOKEN, else a fresh one shown on stderr)")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl mcp                                   the built-in skills, and those published into the project
  $ skillctl mcp --registry .skillctl/registry --approve weights
  $ skillctl mcp --packs ./packs                   the skill tool also offers ./packs/<profile>.yaml
  $ skillctl mcp --skills                          also skills/list, skills/get: the project's SKILL.md folders
  $ skillctl mcp --skills ./skills --http 127.0.0.1:8765   over Streamable HTTP at http://127.0.0.1:8765/mcp
                                                   (requests carry Authorization: Bearer $SKILLCTL_MCP_TOKEN)
  client configuration: {"command": "npx", "args": ["skillctl", "mcp"]}

stdout carries the protocol; diagnostics go to stderr. Stops when the client disconnects (stdio), or on SIGINT/SIGTERM (--http).`,
    )
    .action(async (opts: McpOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, opts)));
}

/** `--http [HOST:]PORT`: a port from 0 to 65535, and a host (IPv6 in brackets). */
function parseHttp(value: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  const port = m !== null ? Number(m[2]) : NaN;
  if (m === null || port > 65535) throw new InvalidArgumentError('HOST:PORT is required (for example 127.0.0.1:8765; port 0 picks a free one).');
  const host = m[1] ?? '127.0.0.1';
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}
