import type { Command } from 'commander';
import type { Runner } from '../../context.js';
import type { KeygenOptions } from './options.js';

export function registerKeygen(program: Command, run: Runner): void {
  program
    .command('keygen')
    .description('Create an Ed25519 signing key: a secret key file (mode 0600) and its public key in public-keys.json.')
    .requiredOption('--signer <id>', 'the signer id, e.g. alice.dev')
    .option('--out <file>', 'secret key file (default: .skillctl/keys/<signer>.key in the project root)')
    .option('--keys <file>', 'public-keys file to add the key to (default: pins/public-keys.json in the project root)')
    .option('--force', "overwrite the secret key file and replace the signer's public key")
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl keygen --signer alice.dev
  $ skillctl pin --sign .skillctl/keys/alice.dev.key --signer alice.dev manifests/my-skill
  $ skillctl keygen --signer ci.release --out /secure/ci.key --json`,
    )
    .action(async (opts: KeygenOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, opts)));
}
