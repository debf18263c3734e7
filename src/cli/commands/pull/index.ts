import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { parseMinSigners } from '../../options.js';
import { PULL_SCHEMES, type PullOptions } from './options.js';

export function registerPull(program: Command, run: Runner): void {
  program
    .command('pull')
    .description('Fetch a skill from where it is published, verify it, and write it into the project.')
    .addArgument(
      new Argument('<reference>', 'oci://HOST[:PORT]/REPO[:TAG|@sha256:HEX]').argParser((value: string) => {
        // Any other scheme is a usage error naming the ones pull takes.
        if (!PULL_SCHEMES.some((s) => value.startsWith(s))) throw new InvalidArgumentError(`pull takes ${PULL_SCHEMES.join(' or ')} references.`);
        return value;
      }),
    )
    .option('--out <dir>', 'make the skill folder in this directory (default: .agents/skills for SKILL.md folders, skills for bundles)')
    .option('--force', 'replace a skill folder that holds other content')
    .option('--plain-http', 'oci://: allow plain HTTP to a registry that is not on loopback')
    .addOption(new Option('--min-signers <n>', 'oci://: refuse unless this many distinct trusted keys signed the manifest').argParser(parseMinSigners))
    .option('--keys <file>', 'oci://: the public-keys file (signer to Ed25519 key) that --min-signers trusts')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pull oci://localhost:5000/skills/pdf-tools:1.0.0        into .agents/skills/pdf-tools/
  $ skillctl pull oci://ghcr.io/acme/my.skill@sha256:<hex> --out vendor
  $ skillctl pull oci://registry.example/skills/x:1 --min-signers 1 --keys pins/public-keys.json`,
    )
    .action(async (reference: string, opts: PullOptions) =>
      run(async (ctx) => (await import('./oci.js')).run(ctx, reference, opts)),
    );
}
