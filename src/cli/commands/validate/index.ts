import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { checksPayloads, type ValidateOptions } from './options.js';
import { collect } from '../../options.js';

export function registerValidate(program: Command, run: Runner): void {
  program
    .command('validate')
    .description('Check skill manifests (schema, rules, digests, metadata) and Agent Skills SKILL.md folders.')
    .argument('[paths...]', "manifest files, SKILL.md files, directories, globs, or - for stdin (default: the project's skill roots)")
    .option('--fix', 'rewrite manifest_digest and content_digest in place, keeping comments and layout')
    .addOption(new Option('--format <format>', 'output format (--json is the same as --format json)').choices(['human', 'json', 'sarif']))
    .addOption(
      new Option('--profile <profile>', 'SKILL.md rules: spec (the specification only), default (plus warnings), strict (for uploads)')
        .choices(['spec', 'default', 'strict'])
        .conflicts('strict'),
    )
    .option('--strict', 'same as --profile strict: client extension fields and platform rules are errors')
    .addOption(
      new Option('--name-charset <set>', 'characters a SKILL.md name may use: ascii (a-z 0-9 -, the default) or unicode (letters of any script)').choices([
        'ascii',
        'unicode',
      ]),
    )
    .option('--contract <name>', 'check payloads (JSON files or - for stdin) against this payload contract instead; exit 4 on violation')
    .option('--contracts <dir>', 'with --contract: also load the contracts in DIR (repeatable)', collect)
    .option('--input <file>', "with --contract: the skill's input payload, for rules that relate output to input")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl validate                           every skill under the project's skill roots
  $ skillctl validate manifests                 every bundle under manifests/
  $ skillctl validate 'skills/*/skill.yaml'     a glob
  $ skillctl validate --fix my-skill            correct the digests after an edit
  $ skillctl validate --strict .claude/skills   SKILL.md folders, as strictly as an upload checks them
  $ cat skill.json | skillctl validate -        from stdin
  $ skillctl validate --format sarif . > skillctl.sarif
  $ skillctl validate --contract ctr.output out.json              a payload against a contract
  $ node script-skill.js < in.json | skillctl validate --contract script.output --input in.json -`,
    )
    .action(async (paths: string[], opts: ValidateOptions) =>
      run(async (ctx) =>
        checksPayloads(opts)
          ? (await import('../contract/run.js')).validatePayloads(ctx, paths, opts)
          : (await import('./run.js')).run(ctx, paths, opts),
      ),
    );
}
