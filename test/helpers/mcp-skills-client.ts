/**
 * `skillctl mcp --skills` as the SDK's client meets it over stdio, for the tests of the Skills
 * extension (test/mcp/skills*.test.ts): a connection, the answers' shapes, and a SKILL.md folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BIN } from './paths.js';
import { cpuSeconds } from './procs.js';

export const Entry = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })) });
export const ListResult = z.object({ skills: z.array(Entry) });
export const GetResult = z.object({ skill: Entry });

/** A SKILL.md folder `root/dir/name`. */
export function skillMd(root: string, dir: string, name: string, description = 'Count the words of a text. Use when the user asks how long a text is.'): void {
  mkdirSync(join(root, dir, name), { recursive: true });
  writeFileSync(join(root, dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
}

/** `skillctl mcp ARGS` started in `cwd`, connected; its stderr so far. */
export async function connect(cwd: string, args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, NO_COLOR: '1' }, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'skillctl-skills-e2e', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** Asserts that a `skills/list` of the server names exactly `uris`. */
export async function listsOnly(client: Client, uris: readonly string[]): Promise<void> {
  const { skills } = await client.request({ method: 'skills/list', params: {} }, ListResult);
  assert.deepEqual(skills.map((s) => s.uri), uris);
}

/**
 * The CPU seconds the server spends on `n` more listings, each naming exactly `uris`: what a
 * listing redoes shows here, whatever else the machine runs. Undefined where /proc cannot say.
 */
export async function listingsCpu(client: Client, n: number, uris: readonly string[]): Promise<number | undefined> {
  const pid = (client.transport as StdioClientTransport).pid;
  if (pid === null || process.platform !== 'linux') return undefined;
  const start = cpuSeconds(pid);
  for (let i = 0; i < n; i++) await listsOnly(client, uris);
  return cpuSeconds(pid) - start;
}

/** The JSON-RPC error a request ends with (it must fail). */
export async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof McpError, String(err));
    return { code: err.code, message: err.message };
  }
  assert.fail('the request succeeded');
}
