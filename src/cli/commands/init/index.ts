import { Option, type Command } from 'commander';
import { collect } from '../../options.js';
import type { Runner } from '../../context.js';
import type { InitOptions } from './options.js';

export function registerInit(program: Command, run: Runner): void {
  program
    .command('init')
    .description('Create a new skill, as a skill.yaml bundle or an Agent Skills SKILL.md folder; asks on a terminal.')
    .argument('[dir]', 'folder to create (default: ./<id>)')
    .addOption(new Option('--format <format>', 'manifest (skill.yaml, runs under policy) or skill-md (SKILL.md folder)').choices(['manifest', 'skill-md']))
    .option('--id <id>', 'skill_id (manifest) or name (skill-md); default: the folder name')
    .option('--description <text>', 'what the skill does and when to use it')
    .addOption(new Option('--runtime <runtime>', 'runtime of the starter script (none: skill-md only)').choices(['python', 'node', 'shell', 'none']))
    .option('--runtime-version <version>', 'exact runtime_version (default: the one on this machine)')
    .option('--permission <scope=value>', 'a permission the entrypoint requests and requires, e.g. fs.read=data (repeatable)', collect)
    .option('--skill-version <semver>', 'skill_version (default 0.1.0)')
    .option('-y, --yes', 'ask nothing: use the flags and defaults')
    .option('--force', 'write into a folder that is not empty, replacing files of the same name')
    .addHelpText(
      'after',
      `
On a terminal, init asks for what the flags do not say. With --yes, --json, or when stdin or stdout
is not a terminal, it never asks: --description and an id (--id or the folder name) are then required.
The new skill passes skillctl validate as written (digests included).

Examples:
  $ skillctl init                                          answer the questions
  $ skillctl init text-tools --yes --description "Normalise text. Use when asked to clean up whitespace."
  $ skillctl init pdf-tools --format skill-md --runtime none --yes --description "Read PDFs. Use for .pdf files."
  $ skillctl init fetcher --yes --runtime node --permission net.http=https://api.example.com/ --description "Fetch data."`,
    )
    .action(async (dir: string | undefined, opts: InitOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, dir, opts)));
}
