/**
 * `skillctl pull skill://… --mcp CMD | --mcp-url URL [--mcp-token-file FILE]`: every skill asked for is fetched and
 * verified (core/mcp-skills/pull.ts), and only then are all of them written (place.ts), or none,
 * under the project's write lock for pulls, waited for as pin waits for its own.
 */
import { isAbsolute, join, relative } from 'node:path';
import { asOutputWrite } from '../../../core/fs/index.js';
import { findProjectSkills } from '../../../core/pins/index.js';
import { DEFAULT_PULL_LIMITS, placeSkills, pullSkills, serverLabel } from '../../../core/mcp-skills/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { processFileLock, projectRootOf } from '../../project.js';
import { serverStderr } from '../../server-stderr.js';
import { readTokenFile } from '../../token-file.js';
import { pullMcpJson, renderPullMcp } from '../../render/pull-mcp.js';
import { MCP_TIMEOUT_SECONDS, requestOf, serverOf, type McpPullOptions } from './mcp-options.js';

export async function run(ctx: Context, refs: readonly string[], opts: McpPullOptions): Promise<number> {
  const server = serverOf(opts);
  const request = requestOf(refs, opts);
  const bearerToken = opts.mcpTokenFile !== undefined ? await readTokenFile(ctx, opts.mcpTokenFile, '--mcp-token-file') : undefined;
  const cwd = ctx.io.cwd;
  const root = (await projectRootOf(ctx)) ?? cwd;
  const outDir = opts.out === undefined ? join(root, '.agents', 'skills') : isAbsolute(opts.out) ? opts.out : join(cwd, opts.out);
  const pulled = await pullSkills(server, request, {
    cwd,
    timeoutMs: Math.round((opts.timeout ?? MCP_TIMEOUT_SECONDS) * 1000),
    limits: DEFAULT_PULL_LIMITS,
    onStderr: serverStderr(ctx),
    ...(bearerToken !== undefined ? { bearerToken } : {}),
  });
  const show = (p: string): string => (relative(cwd, p).startsWith('..') ? p : relative(cwd, p));
  const placed =
    pulled.ok && pulled.skills.length > 0
      ? await asOutputWrite(show(outDir), () => placeSkills(pulled.skills, { root, outDir, defaultOutDir: opts.out === undefined, server, localFolders: async () => (await findProjectSkills(root)).folders, fileLock: processFileLock() }))
      : undefined;
  const result = {
    ok: pulled.ok && (placed?.ok ?? true),
    server: serverLabel(server),
    placed: placed?.placed ?? [],
    files: new Map(pulled.skills.map((s) => [s.uri, s.files.length])),
    diagnostics: [...pulled.diagnostics, ...(placed?.diagnostics ?? [])],
  };
  ctx.out(ctx.opts.json ? pullMcpJson(result, show) : renderPullMcp(result, { style: ctx.style, quiet: ctx.opts.quiet, show }));
  return exitCodeFor(result);
}
