import { Option, type Command } from 'commander';
import type { Runner } from '../../context.js';
import { parseMinSigners, parseTimeout } from '../../options.js';
import { MCP_TIMEOUT_SECONDS, type McpPullOptions } from './mcp-options.js';
import { PULL_SCHEMES, type PullOptions } from './options.js';

type AllPullOptions = PullOptions & McpPullOptions;

/** Options that belong to one scheme: given with the other, they would be silently ignored. */
const OCI_ONLY = { plainHttp: '--plain-http', minSigners: '--min-signers', keys: '--keys', force: '--force' } as const;
const MCP_ONLY = { mcp: '--mcp', mcpUrl: '--mcp-url', mcpTokenFile: '--mcp-token-file', all: '--all' } as const;

function misplaced(opts: AllPullOptions, only: Readonly<Record<string, string>>): string | undefined {
  return Object.entries(only).find(([key]) => (opts as unknown as Record<string, unknown>)[key] !== undefined)?.[1];
}

export function registerPull(program: Command, run: Runner): void {
  const cmd = program.command('pull');
  cmd
    .description('Take skills from elsewhere into the project, verified before anything is written: an OCI artifact (oci://), or skill:// URIs from an MCP server (the Skills extension).')
    .argument('[refs...]', 'what to pull: one oci://HOST[:PORT]/REPO[:TAG|@sha256:HEX], or skill://PATH/SKILL.md URIs (none with --all)')
    .option('--out <dir>', 'write each skill to <dir>/<name>/ (default: .agents/skills/<name>/ for SKILL.md folders, skills/<id>/ for bundles)')
    .option('--force', 'oci://: replace a skill folder that holds other content')
    .option('--plain-http', 'oci://: allow plain HTTP to a registry that is not on loopback')
    .addOption(new Option('--min-signers <n>', 'oci://: refuse unless this many distinct trusted keys signed the manifest').argParser(parseMinSigners))
    .option('--keys <file>', 'oci://: the public-keys file (signer to Ed25519 key) that --min-signers trusts')
    .option('--mcp <command>', "skill://: the MCP server to start, as one string (split into words without a shell: 'npx -y some-server --flag')")
    .option('--mcp-url <url>', 'skill://: the Streamable HTTP endpoint of the MCP server')
    .option('--mcp-token-file <file>', 'skill://: a file holding the bearer token to send to the --mcp-url server (never taken from $SKILLCTL_MCP_TOKEN)')
    .option('--all', 'skill://: every skill the server lists')
    // One option, two bounds: no default here, since each scheme has its own (a default for the
    // whole of an oci:// pull would cut a large layer over a slow link that is still arriving).
    .addOption(
      new Option('--timeout <seconds>', `skill://: how long each request to the server may take (default ${MCP_TIMEOUT_SECONDS}); oci://: how long the whole exchange with the registry may take, from its first request (default: no limit)`).argParser(
        parseTimeout,
      ),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ skillctl pull oci://localhost:5000/skills/pdf-tools:1.0.0        into .agents/skills/pdf-tools/
  $ skillctl pull oci://ghcr.io/acme/my.skill@sha256:<hex> --out vendor
  $ skillctl pull oci://registry.example/skills/x:1 --min-signers 1 --keys pins/public-keys.json
  $ skillctl pull oci://registry.example/skills/x:1 --timeout 300     give up after 5 minutes
  $ skillctl pull skill://git-workflow/SKILL.md --mcp 'npx -y acme-skills-server'
  $ skillctl pull skill://acme/billing/refunds/SKILL.md --mcp-url https://mcp.example.com/mcp
  $ skillctl pull --all --mcp-url http://127.0.0.1:8765/mcp --mcp-token-file .mcp-token
  $ skillctl pull --all --mcp 'skillctl mcp --skills ../other/skills' --out vendor/skills
  $ skillctl pull --all --mcp-url http://127.0.0.1:8080/mcp --json | jq '.skills[].dir'`,
    )
    .action(async (refs: string[], opts: AllPullOptions) => {
      // The scheme of the first reference picks the module; with none, the server options say skill://.
      const serverGiven = opts.all === true || opts.mcp !== undefined || opts.mcpUrl !== undefined;
      const scheme = refs.length === 0 && serverGiven ? 'skill://' : PULL_SCHEMES.find((s) => refs[0]?.startsWith(s));
      // Usage errors (exit 2) go through commander, as for any other bad argument.
      if (scheme === undefined) {
        return cmd.error(refs.length === 0 ? 'error: name what to pull' : `error: cannot pull ${refs[0] ?? ''}: pull takes ${PULL_SCHEMES.join(', ')} references`, { code: 'skillctl.pullScheme' });
      }
      const other = refs.find((r) => !r.startsWith(scheme));
      if (other !== undefined) return cmd.error(`error: cannot pull ${other} with ${refs[0] ?? ''}: one scheme at a time`, { code: 'skillctl.pullScheme' });
      const wrong = misplaced(opts, scheme === 'oci://' ? MCP_ONLY : OCI_ONLY);
      if (wrong !== undefined) return cmd.error(`error: ${wrong} does not apply to ${scheme} references`, { code: 'skillctl.pullScheme' });
      if (scheme === 'skill://') return run(async (ctx) => (await import('./mcp.js')).run(ctx, refs, opts));
      if (refs.length !== 1) return cmd.error('error: pull takes one oci:// reference at a time', { code: 'skillctl.pullScheme' });
      const reference = refs[0] as string;
      return run(async (ctx) => (await import('./oci.js')).run(ctx, reference, opts));
    });
}
