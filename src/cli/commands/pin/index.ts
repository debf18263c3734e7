import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import type { PinOptions } from './options.js';
import { collect, parseMinSigners, parseTimeout } from '../../options.js';

export function registerPin(program: Command, run: Runner): void {
  program
    .command('pin')
    .description('Add or update pins of skill bundles, archives and behaviour packs in the lock file.')
    .argument('[paths...]', 'bundle directories (searched for bundles), .tgz archives, or pack files')
    .option('--all', 'pin every skill folder under the skill roots and pack in manifests/packs/, and drop pins of ones that no longer exist')
    .option('--lock <file>', 'the lock file (default: pins/skills.lock.json in the project root)')
    .option('--sign <key>', 'sign the manifest digest with this secret key file (repeatable, paired with --signer)', collect, [])
    .option('--signer <id>', 'the signer id of the preceding --sign key', collect, [])
    .option('--replace', 'allow changing the digests of an already pinned (id, version)')
    .option('--trust-keys', "record the public-keys file's current digest although it changed")
    .addOption(new Option('--min-signers <n>', 'set the signatures from distinct keys each pin needs').argParser(parseMinSigners))
    .option('--skill-roots <list>', "set where the project keeps its skills (comma-separated folders, or default: manifests,skills,.agents/skills,.claude/skills); recorded in the lock")
    .addOption(new Option('--timeout <seconds>', 'oci://: how long the whole exchange with the registries may take, from its first request (default: no limit)').argParser(parseTimeout))
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pin --all                                  pin (or re-pin) every skill under the skill roots
  $ skillctl pin --all --skill-roots manifests,tools/skills    search these folders from now on
  $ skillctl pin manifests/default/fs.read_text         one bundle
  $ skillctl pin dist/my.skill-1.0.0.tgz                an archive made by skillctl pack
  $ skillctl pin --sign .skillctl/keys/alice.key --signer alice --min-signers 1 manifests/my-skill`,
    )
    .action(async (paths: string[], opts: PinOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, paths, opts)));
}
