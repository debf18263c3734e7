import { Option, type Command } from 'commander';
import type { Runner } from '../context.js';
import { collect } from './contract.js';

export interface ValidateOptions {
  readonly fix?: boolean;
  readonly format?: 'human' | 'json' | 'sarif';
  /** Validate payloads against this contract instead of manifests (docs/commands/contract.md). */
  readonly contract?: string;
  readonly contracts?: readonly string[];
  /** The input payload, for rules that relate an output to its input. */
  readonly input?: string;
}

export function registerValidate(program: Command, run: Runner): void {
  program
    .command('validate')
    .description('Check skill manifests: schema, semantic rules, digests and validation metadata.')
    .argument('[paths...]', 'manifest files, bundle directories, globs, or - for stdin (default: .)')
    .option('--fix', 'rewrite manifest_digest and content_digest in place, keeping comments and layout')
    .addOption(new Option('--format <format>', 'output format (--json is the same as --format json)').choices(['human', 'json', 'sarif']))
    .option('--contract <name>', 'check payloads (JSON files or - for stdin) against this payload contract instead; exit 4 on violation')
    .option('--contracts <dir>', 'with --contract: also load the contracts in DIR (repeatable)', collect)
    .option('--input <file>', "with --contract: the skill's input payload, for rules that relate output to input")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl validate manifests                 every bundle under manifests/
  $ skillctl validate 'skills/*/skill.yaml'     a glob
  $ skillctl validate --fix my-skill            correct the digests after an edit
  $ cat skill.json | skillctl validate -        from stdin
  $ skillctl validate --format sarif . > skillctl.sarif
  $ skillctl validate --contract ctr.output out.json              a payload against a contract
  $ skill | skillctl validate --contract script.output --input in.json -`,
    )
    .action(async (paths: string[], opts: ValidateOptions) =>
      run(async (ctx) =>
        opts.contract !== undefined || opts.contracts !== undefined || opts.input !== undefined
          ? (await import('./contract.run.js')).validatePayloads(ctx, paths, opts)
          : (await import('./validate.run.js')).run(ctx, paths, opts),
      ),
    );
}
