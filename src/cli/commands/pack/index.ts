import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import type { PackOptions } from './options.js';

export function registerPack(program: Command, run: Runner): void {
  program
    .command('pack')
    .description('Validate a skill folder (skill.yaml bundle or SKILL.md folder) and write its archive, byte-identical on every run and machine.')
    .argument('<skill-dir>', 'the bundle directory (holding skill.yaml or skill.json) or Agent Skills folder (holding SKILL.md)')
    .option('--out <dir>', 'directory to write the archive into (default: the working directory)')
    .addOption(
      new Option('--format <format>', 'tgz: <id>-<version>.tgz for pin and run; skill: <name>.skill, the ZIP Claude uploads take; both').choices(['tgz', 'skill', 'both']).default('tgz'),
    )
    .option('--strict', 'check SKILL.md as an upload does: client extension fields and platform rules are errors')
    .option('--force', 'overwrite a .tgz of the same id and version that holds other bytes (only for a version never released)')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pack manifests/default/fs.read_text             writes fs.read_text-0.1.0.tgz
  $ skillctl pack my-skill --out dist                         into dist/
  $ skillctl pack pdf-tools                                   a SKILL.md folder: pdf-tools-<metadata.version>.tgz
  $ skillctl pack pdf-tools --format skill --strict           pdf-tools.skill, for upload to Claude
  $ skillctl pack pdf-tools --format both --out dist          both archives
  $ skillctl pack my-skill --json | jq -r .digest             the archive's sha256: digest`,
    )
    .action(async (dir: string, opts: PackOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, dir, opts)));
}
