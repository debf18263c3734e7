import { Option, type Command } from 'commander';
import type { Runner } from '../context.js';

export interface ValidateOptions {
  readonly fix?: boolean;
  readonly format?: 'human' | 'json' | 'sarif';
}

export function registerValidate(program: Command, run: Runner): void {
  program
    .command('validate')
    .description('Check skill manifests: schema, semantic rules, digests and validation metadata.')
    .argument('[paths...]', 'manifest files, bundle directories, globs, or - for stdin (default: .)')
    .option('--fix', 'rewrite manifest_digest and content_digest in place, keeping comments and layout')
    .addOption(new Option('--format <format>', 'output format (--json is the same as --format json)').choices(['human', 'json', 'sarif']))
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl validate manifests                 every bundle under manifests/
  $ skillctl validate 'skills/*/skill.yaml'     a glob
  $ skillctl validate --fix my-skill            correct the digests after an edit
  $ cat skill.json | skillctl validate -        from stdin
  $ skillctl validate --format sarif . > skillctl.sarif`,
    )
    .action(async (paths: string[], opts: ValidateOptions) => run(async (ctx) => (await import('./validate.run.js')).run(ctx, paths, opts)));
}
