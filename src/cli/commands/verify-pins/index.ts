import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { parseTokenFor } from './mcp-tokens.js';
import type { VerifyPinsOptions } from './options.js';
import { parseMinSigners, parseTimeout } from '../../options.js';

export function registerVerifyPins(program: Command, run: Runner): void {
  program
    .command('verify-pins')
    .description('Check every pin of the lock file against the files (read-only): digests, identities, signatures, unpinned bundles.')
    .option('--lock <file>', 'the lock file, skillctl or provenact format, or - for stdin (default: pins/skills.lock.json in the project root)')
    .addOption(new Option('--staged', 'verify the index, the tree being committed (read with git; the working tree is not read)').conflicts('rev'))
    .option('--rev <rev>', "verify a commit's tree (a branch, tag or commit id; read with git, the working tree is not read)")
    .option('--base <rev>', "with --staged or --rev: also compare the lock with this commit's lock (the base branch): other keys, fewer signers or skill roots, other digests for a pinned id and version are findings")
    .option('--remote', "also ask each pulled skill's origin whether it moved: an oci:// pin's registry whether its tag still resolves to the pinned digest, an MCP server for the skill's current resource set")
    .option('--start-servers', 'with --remote: start the MCP server programs the lock records (origin.mcp.server.command) to ask them; without it each is reported (exit 2), not started. Only for a lock you have reviewed')
    .option(
      '--private-origins',
      'with --remote: also contact origins whose host is not a public address (loopback, private network, link-local, cloud metadata); without it each is reported (exit 2), not contacted. Only for a lock you have reviewed',
    )
    .addOption(
      new Option(
        '--mcp-token-file <origin=file>',
        "with --remote: send the bearer token in FILE to the lock's MCP server URLs of ORIGIN (http[s]://HOST[:PORT]) and to no other; repeatable, one per origin",
      ).argParser(parseTokenFor),
    )
    .addOption(
      new Option('--timeout <seconds>', 'with --remote: how long the remote checks may take in all, every registry exchange and MCP server session together (default: no limit)').argParser(
        parseTimeout,
      ),
    )
    .addOption(
      new Option('--min-signers <n>', "signatures from distinct keys required: raises a skillctl lock's min_signers; a provenact lock's MIN_SIGNERS (default 2)").argParser(parseMinSigners),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl verify-pins                                as a pre-merge hook: exit 0 only when all pass
  $ skillctl verify-pins --staged                       in a pre-commit hook: what is being committed
  $ skillctl verify-pins --rev HEAD                     in a pre-push hook or CI: a commit's tree
  $ skillctl verify-pins --rev HEAD --base origin/main  in CI on a pull request: and what it changes of the lock's trust
  $ skillctl verify-pins --json | jq '.diagnostics[]'
  $ skillctl verify-pins --remote                       and report pulled skills whose origin moved
  $ skillctl verify-pins --remote --timeout 120         and give up on origins still unanswered after 2 minutes
  $ skillctl verify-pins --remote --start-servers       and start the MCP servers a reviewed lock records, to ask them
  $ skillctl verify-pins --remote --private-origins     and ask the origins a reviewed lock names on private addresses
  $ skillctl verify-pins --remote --mcp-token-file https://mcp.example.com=.mcp-token
                                                        and send that server (only) its token
  $ skillctl verify-pins --lock ../provenact-skills/pins/skills.lock.json

Exit status: 0 all verified, 1 findings, 2 the lock cannot be read or, with --remote, an origin cannot be asked.`,
    )
    .action(async (opts: VerifyPinsOptions) => run(async (ctx) => (await import('./run.js')).run(ctx, opts)));
}
