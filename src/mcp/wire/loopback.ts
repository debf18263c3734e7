/**
 * Whether an address names this machine only: its own module, so that `skillctl mcp` checks
 * `--http` before it loads the HTTP transport (http.ts), which only `--http` needs: the SDK's
 * transport brings @hono/node-server, whose load replaces the global Response and so loads node's
 * fetch (undici), tens of milliseconds of every stdio server's start.
 */

/** Whether `host` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
