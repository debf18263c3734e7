/**
 * Bearer tokens given to skillctl: `mcp --http-token-file` (the token the server requires) and
 * `--mcp-token-file` of pull and verify-pins (the token sent to a server). A file, never an
 * argument: an argument is visible to every user of the machine (ps, /proc) and kept in shell
 * history. Messages name the file or the variable, never the token.
 */
import { isAbsolute, join } from 'node:path';
import { tokenProblem } from '../core/bearer-token.js';
import { SkillctlError } from '../core/errors.js';
import { describeRefusal, readBounded, refusalCode } from '../core/fs/index.js';
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

/**
 * The token in `file` (relative to the working directory), its one line trimmed; `option` names it
 * in messages. `ownOnly`: the file is refused when other users may read or write it (a mode with
 * any group or other bit), as ssh refuses such a key and `sign` a secret key: the server's token
 * keeps the machine's other accounts out, and a file made under the usual umask (0644) handed it
 * to each of them.
 */
export async function readTokenFile(ctx: Context, file: string, option: string, ownOnly = false): Promise<string> {
  const r = await readBounded(isAbsolute(file) ? file : join(ctx.io.cwd, file), { maxBytes: TOKEN_FILE_MAX_BYTES });
  if (!r.ok) throw new SkillctlError(refusalCode(r), describeRefusal(r, file));
  if (ownOnly && process.platform !== 'win32' && (r.mode & 0o077) !== 0) {
    throw new SkillctlError('USAGE', `${option} ${file} is readable or writable by other users (mode ${(r.mode & 0o777).toString(8)}): any account on this machine could read the token and open sessions`, {
      hint: `chmod 600 ${file}`,
    });
  }
  return usableToken(r.bytes.toString('utf8').trim(), `${option} ${file}`);
}
