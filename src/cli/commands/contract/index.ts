import type { Command } from 'commander';
import { collect } from '../../options.js';
import type { Runner } from '../../context.js';
import type { ContractOptions } from './options.js';

export function registerContract(program: Command, run: Runner): void {
  const contract = program
    .command('contract')
    .description('List and show payload contracts: the JSON shapes an agent and its skills exchange.')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl contract list                          the built-in contracts (seed 001)
  $ skillctl contract list --contracts contracts    plus yours, with every finding
  $ skillctl contract show ctr.output               the rules of the latest ctr.output version
  $ skillctl contract show --json ctr.output.v1     the rules and the JSON Schema
  $ skillctl validate --contract ctr.output out.json   check a payload (exit 4 on violation)`,
    );
  contract
    .command('list')
    .description('List the contracts (built-in and --contracts) and report malformed ones.')
    .option('--contracts <dir>', 'also load the contracts in DIR (repeatable)', collect)
    .action(async (opts: ContractOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, { action: 'list', opts })));
  contract
    .command('show')
    .description('Show one contract: its $id, its rules by payload path, and (with --json) its schema.')
    .argument('<name>', 'versioned name (ctr.output.v1), family (ctr.output: the latest version) or $id')
    .option('--contracts <dir>', 'also load the contracts in DIR (repeatable)', collect)
    .action(async (name: string, opts: ContractOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, { action: 'show', name, opts })));
}
