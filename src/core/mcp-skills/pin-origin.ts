/**
 * The `origin` a pin of a pulled skill records (SEP-2640 "Content-bound approval": an approval
 * binds to the entry's resource set, every URI and digest). It is taken from the pull's origin
 * record only when the folder still holds exactly the files pulled: a folder edited since is
 * pinned as a local skill, and the warning says so, since its bytes are no longer the server's.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import type { McpOrigin } from './origins.js';

export interface HashedFile {
  readonly path: string;
  readonly digest: Sha256Digest;
  readonly size: number;
}

/** `{ mcp }` for the pin of `source`, or nothing (with a warning when the folder changed since the pull). */
export function mcpPinOrigin(record: McpOrigin | undefined, files: readonly HashedFile[], source: string): { readonly origin?: { readonly mcp: McpOrigin }; readonly diagnostics: readonly Diagnostic[] } {
  if (record === undefined) return { diagnostics: [] };
  const now = new Map(files.map((f) => [f.path, f]));
  const same = record.files.length === files.length && record.files.every((f) => now.get(f.path)?.digest === f.digest && now.get(f.path)?.size === f.size);
  if (same) return { origin: { mcp: { server: record.server, uri: record.uri, files: record.files } }, diagnostics: [] };
  return {
    diagnostics: [
      diag('MCP_PIN_ORIGIN_STALE', `${source} no longer holds the files pulled from ${record.uri}; it is pinned as a local skill, without its origin`, {
        file: source,
        hint: 'pull it again to pin it with its origin, or keep the local changes as a local skill',
      }),
    ],
  };
}
