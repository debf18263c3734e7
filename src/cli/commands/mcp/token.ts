/**
 * The `--http` server's token: from `--http-token-file`, else `$SKILLCTL_MCP_TOKEN`, else a fresh
 * one for this server's life, which the user then reads on stderr (never on stdout, which a
 * script may log). A token given is checked as one (bearer.ts): a short or empty one would be a
 * lock anyone can guess.
 */
import { isAbsolute, join } from 'node:path';
import { SkillctlError } from '../../../core/errors.js';
import { readInputFile } from '../../../core/fs/index.js';
import { newToken, tokenProblem } from '../../../mcp/wire/bearer.js';
import type { Context } from '../../context.js';

/** A token file holds one line. */
const TOKEN_FILE_MAX_BYTES = 4096;

export async function httpToken(ctx: Context, file: string | undefined): Promise<{ readonly token: string; readonly from: 'file' | 'env' | 'new' }> {
  let token: string;
  let from: 'file' | 'env';
  if (file !== undefined) {
    const bytes = await readInputFile(isAbsolute(file) ? file : join(ctx.io.cwd, file), file, { maxBytes: TOKEN_FILE_MAX_BYTES });
    token = bytes.toString('utf8').trim();
    from = 'file';
  } else {
    const env = ctx.io.env.SKILLCTL_MCP_TOKEN;
    if (env === undefined) return { token: newToken(), from: 'new' };
    token = env;
    from = 'env';
  }
  const problem = tokenProblem(token);
  if (problem !== undefined) {
    throw new SkillctlError('USAGE', `${from === 'file' ? `--http-token-file ${file ?? ''}` : '$SKILLCTL_MCP_TOKEN'} is not a usable token: ${problem}`, {
      hint: 'make one with: node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'base64url\'))"',
    });
  }
  return { token, from };
}
