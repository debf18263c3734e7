import { InvalidArgumentError, type Command } from 'commander';
import type { Runner } from '../../context.js';
import type { McpPullOptions } from './mcp-options.js';

/** Every scheme `pull` takes, and the option that says where the skills come from. */
const SCHEMES = ['skill://'] as const;

/** `--timeout <seconds>`: a positive number of seconds, at most a day. */
function parseTimeout(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 86_400) throw new InvalidArgumentError('a number of seconds above 0 and at most 86400 is required.');
  return n;
}

export function registerPull(program: Command, run: Runner): void {
  const cmd = program.command('pull');
  cmd
    .description('Take skills from elsewhere into the project, verified before anything is written: skill:// URIs from an MCP server (the Skills extension).')
    .argument('[refs...]', 'what to pull: skill://PATH/SKILL.md URIs (none with --all)')
    .option('--mcp <command>', "skill://: the MCP server to start, as one string (split into words without a shell: 'npx -y some-server --flag')")
    .option('--mcp-url <url>', 'skill://: the Streamable HTTP endpoint of the MCP server')
    .option('--all', 'skill://: every skill the server lists')
    .option('--out <dir>', 'write each skill to <dir>/<name>/ (default: .agents/skills/<name>/ in the project)')
    .option('--timeout <seconds>', 'how long each request to the server may take', parseTimeout, 30)
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pull skill://git-workflow/SKILL.md --mcp 'npx -y acme-skills-server'
  $ skillctl pull skill://acme/billing/refunds/SKILL.md --mcp-url https://mcp.example.com/mcp
  $ skillctl pull --all --mcp 'skillctl mcp --skills ../other/skills' --out vendor/skills
  $ skillctl pull --all --mcp-url http://127.0.0.1:8080/mcp --json | jq '.skills[].dir'`,
    )
    .action(async (refs: string[], opts: McpPullOptions) => {
      // The scheme of the first reference picks the module; with none, the server options say skill://.
      const scheme = refs.length === 0 && (opts.all === true || opts.mcp !== undefined || opts.mcpUrl !== undefined) ? 'skill://' : SCHEMES.find((s) => refs[0]?.startsWith(s));
      if (scheme === 'skill://') return run(async (ctx) => (await import('./mcp.js')).run(ctx, refs, opts));
      // A usage error (exit 2) through commander, as for any other bad argument.
      cmd.error(refs.length === 0 ? 'error: name what to pull' : `error: cannot pull ${refs[0] ?? ''}: pull takes ${SCHEMES.join(', ')} references`, { code: 'skillctl.pullScheme' });
    });
}
