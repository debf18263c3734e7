/**
 * Bearer tokens given to skillctl: `mcp --http-token-file` (the token the server requires) and
 * `--mcp-token-file` of pull and verify-pins (the token sent to a server). A file, never an
 * argument: an argument is visible to every user of the machine (ps, /proc) and kept in shell
 * history. Messages name the file or the variable, never the token.
 */
import { isAbsolute, join } from 'node:path';
import { tokenProblem } from '../core/bearer-token.js';
import { SkillctlError } from '../core/errors.js';
import { readInputFile } from '../core/fs/index.js';
import type { Context } from './context.js';

/** A token file holds one line. */
const TOKEN_FILE_MAX_BYTES = 4096;

/**
 * `token` when it is one (core/bearer-token.ts), else a usage error naming `source` (the option
 * and file, or the variable): a short or empty token would be a lock anyone can guess, and a
 * character a header cannot carry would only fail later, at the server.
 */
export function usableToken(token: string, source: string): string {
  const problem = tokenProblem(token);
  if (problem === undefined) return token;
  throw new SkillctlError('USAGE', `${source} is not a usable token: ${problem}`, {
    hint: 'make one with: node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'base64url\'))"',
  });
}

/** The token in `file` (relative to the working directory), its one line trimmed; `option` names it in messages. */
export async function readTokenFile(ctx: Context, file: string, option: string): Promise<string> {
  const bytes = await readInputFile(isAbsolute(file) ? file : join(ctx.io.cwd, file), file, { maxBytes: TOKEN_FILE_MAX_BYTES });
  return usableToken(bytes.toString('utf8').trim(), `${option} ${file}`);
}
