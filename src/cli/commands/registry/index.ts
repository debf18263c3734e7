import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { parseMinSigners, parseTimeout } from '../../options.js';
import type { RegistryOptions, MatchOptions, PublishOptions } from './options.js';

const REGISTRY_HELP = "exactly this registry directory (default: $SKILLCTL_REGISTRY, else the project's .skillctl/registry over the shipped one)";

export function registerRegistry(program: Command, run: Runner): void {
  const registry = program
    .command('registry')
    .description('Discover, match, load, validate and publish capabilities (the skill loading protocol).')
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl registry list
  $ skillctl registry match "I just weighed 187.6 lbs"
  $ skillctl registry load weights workouts --json
  $ skillctl registry validate ./capabilities/weights
  $ skillctl registry publish ./capabilities/weights --registry .skillctl/registry`,
    );

  registry
    .command('list')
    .description('The light index: capability_id, name, description and intent_triggers of every capability, and its origin.')
    .option('--registry <dir>', REGISTRY_HELP)
    .addHelpText('after', '\nExamples:\n  $ skillctl registry list\n  $ skillctl registry list --json --registry ./my-registry')
    .action(async (opts: RegistryOptions) => run(async (ctx) => (await import('./run.js')).list(ctx, opts)));

  registry
    .command('match')
    .description('Rank capabilities by how their intent triggers match a message (words and stems).')
    .argument('<text...>', 'the user message (quote it, or give its words)')
    .option('--registry <dir>', REGISTRY_HELP)
    .addOption(new Option('--limit <n>', 'show at most n capabilities'))
    .addHelpText('after', '\nExamples:\n  $ skillctl registry match "I just weighed 187.6 lbs"\n  $ skillctl registry match --json log my workout and weigh-in')
    .action(async (text: string[], opts: MatchOptions) => run(async (ctx) => (await import('./run.js')).match(ctx, text.join(' '), opts)));

  registry
    .command('load')
    .description('The bundle of each capability: skill_doc, tools and ui_schemas (capability_skill_load).')
    .argument('<capability_id...>', 'capabilities to load')
    .option('--registry <dir>', REGISTRY_HELP)
    .addHelpText('after', '\nExamples:\n  $ skillctl registry load weights\n  $ skillctl registry load --json fs git')
    .action(async (ids: string[], opts: RegistryOptions) => run(async (ctx) => (await import('./run.js')).load(ctx, ids, opts)));

  for (const [name, description, dryRun] of [
    ['validate', 'Check capability bundle directories as publish would, without publishing.', true],
    ['publish', 'Validate capability bundle directories and make them the registry\'s latest, atomically.', false],
  ] as const) {
    registry
      .command(name)
      .description(description)
      .argument('<dir...>', 'capability bundle directories (capability.json, skill.md, tools.json, ui_schemas.json), or oci://HOST[:PORT]/REPO[:TAG|@sha256:HEX] artifacts that hold one')
      .option('--registry <dir>', REGISTRY_HELP)
      .option('--plain-http', 'oci://: allow plain HTTP to a registry that is not on loopback')
      .addOption(new Option('--min-signers <n>', 'oci://: refuse an artifact unless this many distinct trusted keys signed its manifest').argParser(parseMinSigners))
      .option('--keys <file>', 'oci://: the public-keys file (signer to Ed25519 key) that --min-signers trusts')
      .addOption(new Option('--timeout <seconds>', 'oci://: how long the whole exchange with the registries may take, from its first request (default: no limit)').argParser(parseTimeout))
      .addHelpText(
        'after',
        `\nExamples:\n  $ skillctl registry ${name} ./capabilities/weights ./capabilities/workouts\n  $ skillctl registry ${name} --json ./capabilities/*\n  $ skillctl registry ${name} oci://localhost:5000/team/weights:1.0.0`,
      )
      .action(async (dirs: string[], opts: PublishOptions) => run(async (ctx) => (await import('./publish.js')).run(ctx, dirs, opts, dryRun)));
  }
}
