// Golden cases for the capability registry and its MCP server (docs/commands/registry.md, mcp.md).
// Read-only cases use the shipped registry or fixtures; publish writes into a temp registry.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GoldenCase, GoldenContext } from '../../helpers/golden-cli.js';

const CAPS = 'fixtures/registry/capabilities';
const VALID = ['meals', 'weights', 'workouts'].map((c) => `${CAPS}/valid/${c}`);
/** The valid fixture capabilities, copied to `caps/` in a temp dir. */
const COPY = { caps: `${CAPS}/valid` } as const;
const COPIED = ['caps/meals', 'caps/weights', 'caps/workouts'];

/** A temp registry `reg` holding the three valid fixture capabilities. */
async function published({ cli }: GoldenContext): Promise<void> {
  await cli(['registry', 'publish', '--registry', 'reg', ...COPIED]);
}

/** The temp dir made a project: the top of a git work tree. */
async function inProject({ dir }: GoldenContext): Promise<void> {
  await mkdir(join(dir, '.git'));
}

/** One MCP session: initialize, initialized, tools/list, then `calls` (JSON-RPC requests from id 3). */
function session(calls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[]): string {
  const messages: unknown[] = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'golden', version: '1.0.0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ...calls.map((params, i) => ({ jsonrpc: '2.0', id: 3 + i, method: 'tools/call', params })),
  ];
  return messages.map((m) => `${JSON.stringify(m)}\n`).join('');
}

export const REGISTRY: readonly GoldenCase[] = [
  { args: ['registry', 'list'] },
  { args: ['registry', 'list', '--json'] },
  { args: ['registry', 'match', 'read', 'a', 'file'] },
  { args: ['registry', 'match', '--json', '--limit', '1', 'show me the git status'] },
  { args: ['registry', 'load', 'filesystem'] },
  { args: ['registry', 'load', 'nosuch'] },
  { args: ['registry', 'load', '--json', 'filesystem', 'nosuch'] },
  { args: ['registry', 'validate', ...VALID] },
  { args: ['registry', 'validate', `${CAPS}/invalid/workouts-tool-ref-dangling`] },
  { args: ['registry', 'validate', '--json', `${CAPS}/invalid/meals-no-triggers`] },
  { args: ['registry', 'list', '--registry', 'fixtures/registry/nosuch'] },
  // publishing, into a temp registry
  { args: ['registry', 'publish', '--registry', 'reg', ...COPIED.slice(0, 2)], temp: COPY, list: ['reg'] },
  { args: ['registry', 'publish', '--json', '--registry', 'reg', 'bad', 'caps/meals'], temp: { ...COPY, bad: `${CAPS}/invalid/workouts-fence-unclosed` }, list: ['reg'] },
  { args: ['registry', 'publish', '--registry', 'reg', ...COPIED], label: 'again', temp: COPY, setup: published, list: ['reg/index.json'] },
  { args: ['registry', 'publish', 'caps/meals'], label: 'no-project', temp: COPY, list: ['.skillctl'] },
  { args: ['registry', 'publish', 'caps/meals'], label: 'in-project', temp: COPY, setup: async ({ dir }) => {
      // A project root is the top of a git work tree (or holds a lock); a policy file alone is not one.
      await mkdir(join(dir, '.git'));
      await writeFile(join(dir, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
    }, list: ['.skillctl'] },
  // The project's registry over the shipped one: a capability beside the shipped ones, and one shadowing a shipped id.
  { args: ['registry', 'list'], label: 'in-project', temp: COPY, setup: async (ctx) => {
      await inProject(ctx);
      await ctx.cli(['registry', 'publish', 'caps/meals']);
    } },
  { args: ['registry', 'publish', 'json'], label: 'shadows-shipped', temp: { json: 'manifests/capabilities/json' }, setup: inProject, list: ['.skillctl/registry/index.json'] },
  { args: ['registry', 'list', '--json'], label: 'shadowed', temp: { json: 'manifests/capabilities/json' }, setup: async (ctx) => {
      await inProject(ctx);
      await ctx.cli(['registry', 'publish', 'json']);
    } },
  { args: ['registry', 'match', '--registry', 'reg', 'I just weighed 187.6 lbs'], label: 'published', temp: COPY, setup: published },
  { args: ['registry', 'list', '--json'], label: 'env', temp: COPY, setup: published, env: { SKILLCTL_REGISTRY: '<TMP>/reg' } },
  // mcp over stdio: a fixed session on stdin; the server stops at its end. Only a tool answered
  // without I/O (skill) is here: the server closes at stdin's end without waiting for calls in
  // flight, so a call that reads the registry loses its answer (one of the report's findings).
  { args: ['mcp', '--no-audit'], label: 'skill-tool', temp: {}, stdin: session([{ name: 'skill', arguments: { profile: 'daily', max_chars: 700 } }]) },
  { args: ['mcp', '--no-audit', '--registry', 'nosuch'], temp: {} },
  { args: ['mcp', '--no-audit', '--packs', '<ROOT>/fixtures/packs/operator/invalid/reserved'], temp: {} },
];
