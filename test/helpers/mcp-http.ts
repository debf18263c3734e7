/**
 * `skillctl mcp … --http 127.0.0.1:0` started for a test: its URL (read from stderr) and the token
 * it was given, and the SDK client transport that carries it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN } from './paths.js';

/** The token the tests' servers are started with ($SKILLCTL_MCP_TOKEN). */
export const TOKEN = 'test-token-0123456789abcdef';
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export interface HttpMcp {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything on stderr so far. */
  stderr(): string;
  readonly exited: Promise<number | null>;
}

/** Starts `skillctl mcp <args> --http 127.0.0.1:0` in `cwd` with SKILLCTL_MCP_TOKEN (unless `env` says otherwise). */
export async function startHttpMcp(args: readonly string[], cwd: string, env: Record<string, string | undefined> = { SKILLCTL_MCP_TOKEN: TOKEN }): Promise<HttpMcp> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args, '--http', '127.0.0.1:0'], { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', () => {
      const m = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(err);
      // The token line follows the URL's: wait for both.
      if (m !== null && /clients send Authorization: Bearer /.test(err)) resolve(m[1] as string);
    });
    child.once('exit', () => reject(new Error(`exited: ${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

/** The SDK's client transport to `url`, sending `token`. */
export function authedTransport(url: string, token = TOKEN): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
}
