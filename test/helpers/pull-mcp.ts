/** The test MCP skills server as `pull skill:// --mcp` starts it, for the pull tests. */
import { join } from 'node:path';
import type { Lie } from './mcp-skills-server.js';
import { fixture, ROOT } from './paths.js';

/** The skills the test server serves by default. */
export const SERVED = fixture('mcp-skills', 'served');
export const SERVER = join(ROOT, 'dist', 'test', 'helpers', 'mcp-skills-server.js');

/** The --mcp string that starts the test server over `dir`, lying as told; `count`: the file its count of resources/read answers goes to. */
export function serverCommand(dir: string, lie?: Lie, count?: string): string {
  return [process.execPath, SERVER, '--dir', dir, ...(lie !== undefined ? ['--lie', lie] : []), ...(count !== undefined ? ['--count', count] : [])].map((a) => `'${a}'`).join(' ');
}
