import type { Command } from 'commander';
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
    .option('--skills', "also serve the project's Agent Skills (SKILL.md folders under its skill roots) through the MCP Skills extension")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl mcp                                   the built-in skills, and those published into the project
  $ skillctl mcp --registry .skillctl/registry --approve weights
  $ skillctl mcp --packs ./packs                   the skill tool also offers ./packs/<profile>.yaml
  $ skillctl mcp --skills                          also skills/list, skills/get: the project's SKILL.md folders
  client configuration: {"command": "npx", "args": ["skillctl", "mcp"]}

stdout carries the protocol; diagnostics go to stderr. Stops when the client disconnects.`,
    )
    .action(async (opts: McpOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, opts)));
}
