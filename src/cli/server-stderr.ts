/**
 * Where the stderr of an MCP server program skillctl starts (`pull --mcp`, `verify-pins --remote
 * --start-servers`) goes: skillctl's stderr, with its control characters made visible. The
 * program is a third party's, and a terminal obeys what reaches it raw (window titles, the
 * clipboard through OSC 52, lines rewritten): the same rule as a skill's stderr.
 */
import { visible } from '../core/visible.js';
import type { Context } from './context.js';

export function serverStderr(ctx: Context): (text: string) => void {
  return (text) => void ctx.io.stderr.write(visible(text));
}
