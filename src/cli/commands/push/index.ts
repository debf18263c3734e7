import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { parseTimeout } from '../../options.js';
import { parseChunkMib, type PushOptions } from './options.js';

export function registerPush(program: Command, run: Runner): void {
  program
    .command('push')
    .description('Push a skill (folder or pack archive) to an OCI registry as an artifact whose layer is the reproducible pack archive.')
    .argument('<source>', 'a skill folder (skill.yaml bundle or SKILL.md folder), or a .tgz that skillctl pack wrote')
    .argument('<ref>', 'oci://HOST[:PORT]/REPO[:TAG] (tag default: latest)')
    .option('--plain-http', 'allow plain HTTP to a registry that is not on loopback (loopback needs no flag)')
    .option('--sign <key>', 'sign the manifest digest with this secret key file and attach the signature as a referrer (with --signer)')
    .option('--signer <id>', 'the signer id of the --sign key')
    .addOption(
      new Option('--chunk-mib <n>', 'upload the layer in chunks of this many MiB (default: one streamed request, chunks of 8 MiB where the registry refuses it)').argParser((v) => {
        try {
          return parseChunkMib(v);
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
      }),
    )
    .addOption(new Option('--timeout <seconds>', 'how long the whole exchange with the registry may take, from its first request (default: no limit)').argParser(parseTimeout))
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl push .agents/skills/pdf-tools oci://localhost:5000/skills/pdf-tools:1.0.0
  $ skillctl push dist/my.skill-1.0.0.tgz oci://ghcr.io/acme/my.skill:1.0.0
  $ skillctl push my-skill oci://registry.example/skills/my-skill:1 --sign .skillctl/keys/alice.key --signer alice
  $ skillctl push my-skill oci://localhost:5000/my-skill --json | jq -r .digest
  $ skillctl push my-skill oci://registry.example/skills/my-skill:1 --timeout 600`,
    )
    .action(async (source: string, reference: string, opts: PushOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, source, reference, opts)));
}
