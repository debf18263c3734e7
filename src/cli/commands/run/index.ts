import { Option, type Command } from 'commander';
import { collect } from '../../options.js';
import type { Runner } from '../../context.js';
import type { RunCommandOptions } from './options.js';

export function registerRun(program: Command, run: Runner): void {
  program
    .command('run')
    .description('Run a skill entrypoint under the host policy, with limits, contract checks and an audit record.')
    .argument('[target]', 'a skill id (fs.read_text, fs.read_text@0.1.0), a bundle directory (./my-skill) or a packed archive (my-skill-1.0.0.tgz)')
    .option('--list', "list the skill ids run accepts (the project's pins, then the built-in skills) with versions and origins")
    .option('--entrypoint <id>', 'the entrypoint to run (default: the only one, else main)')
    .option('--input <file>', 'the input JSON document, or - for stdin (default: {})')
    .option('--policy <file>', 'the host policy (default: skillctl.policy.yaml in the project root, else read-only access to the working directory)')
    .addOption(new Option('--sandbox <mode>', 'OS isolation for process runtimes').choices(['auto', 'bwrap', 'none']).default('auto'))
    .option('--retries <n>', 'run again, up to n (at most 3) more times, when the output violates its contract', '0')
    .option('--audit <file>', 'append the audit record here (default: .skillctl/audit.jsonl in the project root)')
    .option('--no-audit', 'do not write an audit record')
    .option('--check-determinism', 'run a determinism-eligible entrypoint twice and fail (exit 1) when the result or side-effect fingerprints differ')
    .option('--contracts <dir>', 'payload contracts the schemas may $ref, besides the built-in ones (repeatable)', collect)
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl run --list                                     the skill ids it accepts
  $ skillctl run fs.read_text --input request.json         a built-in skill
  $ echo '{"path":"README.md"}' | skillctl run fs.read_text --input -
  $ skillctl run ./my-skill --entrypoint main --json       a bundle directory
  $ skillctl run dist/my-skill-1.0.0.tgz                    an archive skillctl pack wrote
  $ skillctl run ./my-skill --policy ci.policy.yaml --retries 2
  $ skillctl run fs.read_text --input request.json --check-determinism
  $ skillctl audit verify                                   check the audit log

Exit status: 0 ok, 1 skill failed, 2 usage or invalid input, 3 denied by policy,
4 output or error violated its contract, 124 timed out.`,
    )
    .action(async (target: string | undefined, opts: RunCommandOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, target, opts)));
}
