import type { Command } from 'commander';
import type { Runner } from '../context.js';

export interface PackOptions {
  readonly out?: string;
}

export function registerPack(program: Command, run: Runner): void {
  program
    .command('pack')
    .description('Validate a bundle and write <skill_id>-<skill_version>.tgz, byte-identical on every run and machine.')
    .argument('<bundle-dir>', 'the bundle directory (holding skill.yaml or skill.json)')
    .option('--out <dir>', 'directory to write the archive into (default: the working directory)')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pack manifests/default/fs.read_text             writes fs.read_text-0.1.0.tgz
  $ skillctl pack my-skill --out dist                         into dist/
  $ skillctl pack my-skill --json | jq -r .digest             the archive's sha256: digest`,
    )
    .action(async (dir: string, opts: PackOptions) => run(async (ctx) => (await import('./pack.run.js')).run(ctx, dir, opts)));
}
