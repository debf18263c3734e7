/**
 * The `--http` server's token: from `--http-token-file`, else `$SKILLCTL_MCP_TOKEN`, else a fresh
 * one for this server's life, which the user then reads on stderr (never on stdout, which a
 * script may log). A token given is checked as one (../../token-file.ts): a short or empty one
 * would be a lock anyone can guess.
 */
import { newToken } from '../../../mcp/wire/bearer.js';
import type { Context } from '../../context.js';
import { readTokenFile, usableToken } from '../../token-file.js';

export async function httpToken(ctx: Context, file: string | undefined): Promise<{ readonly token: string; readonly from: 'file' | 'env' | 'new' }> {
  if (file !== undefined) return { token: await readTokenFile(ctx, file, '--http-token-file', true), from: 'file' };
  const env = ctx.io.env.SKILLCTL_MCP_TOKEN;
  if (env === undefined) return { token: newToken(), from: 'new' };
  return { token: usableToken(env, '$SKILLCTL_MCP_TOKEN'), from: 'env' };
}
