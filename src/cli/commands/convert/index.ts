import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import type { ConvertOptions } from './options.js';

export function registerConvert(program: Command, run: Runner): void {
  program
    .command('convert')
    .description('Write a skill.yaml for an Agent Skills folder (SKILL.md), or a SKILL.md for a skill.yaml bundle.')
    .argument('<dir>', 'the skill folder')
    .addOption(new Option('--to <format>', 'what to write: manifest (skill.yaml) or skill-md (SKILL.md); needed when the folder has both').choices(['manifest', 'skill-md']))
    .option('--force', 'replace the file if it exists')
    .option('--id <skill_id>', 'skill_id of the new manifest (default: the SKILL.md name)')
    .option('--skill-version <semver>', 'skill_version of the new manifest (default: metadata.version, else 0.1.0)')
    .option('--name <name>', 'name of the new SKILL.md (default: the folder name)')
    .option('--python-version <x.y.z>', 'runtime_version of python scripts (default: python3 on this machine)')
    .option('--node-version <x.y.z>', 'runtime_version of node scripts (default: the node running skillctl)')
    .option('--shell-version <shell@x.y>', 'runtime_version of shell scripts (default: bash on this machine, e.g. bash@5.2)')
    .addOption(new Option('--name-charset <set>', 'characters a SKILL.md name may use').choices(['ascii', 'unicode']))
    .addHelpText(
      'after',
      `
SKILL.md to skill.yaml: each script under scripts/ (.py, .js/.mjs/.cjs, .sh, or a #! line) becomes
an entrypoint that skillctl run executes under policy; permissions are empty, so a run is granted
nothing until you request it. skill.yaml to SKILL.md: the manifest's digests are updated, since
SKILL.md becomes part of the bundle. Either way the result passes skillctl validate.

Examples:
  $ skillctl convert pdf-tools                         SKILL.md folder -> pdf-tools/skill.yaml
  $ skillctl convert pdf-tools --id acme.pdf_tools --python-version 3.12.4
  $ skillctl convert manifests/fs-read-text --name fs-read-text   skill.yaml -> SKILL.md`,
    )
    .action(async (dir: string, opts: ConvertOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, dir, opts)));
}
