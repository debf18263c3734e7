/**
 * `verify-pins --remote` for a pin of a pulled skill: `skills/get` is asked again for the pin's
 * URI and the server's current resource set compared with the one the pin recorded (SEP-2640
 * "Content-bound approval": a different set, a file rotated, added or removed, revokes the
 * approval). Only the entry is fetched, never the files: the local files are what verify-pins
 * checks offline, the entry is what the server would now give.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { toGetResult } from './answers.js';
import { checkEntry } from './check-entry.js';
import { connectSkillServer, serverLabel, ServerFailure, withoutToken, type SessionDeadline } from './connection.js';
import { DEFAULT_PULL_LIMITS, maxMessageBytes } from './limits.js';
import type { McpOrigin } from './origins.js';
import { filePathOf, parseSkillUri } from './uri.js';

export interface DriftOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** How the pin is named in findings (its source folder). */
  readonly file: string;
  /** The bound on the caller's whole remote run (verify-pins --timeout); default none. */
  readonly deadline?: SessionDeadline;
  /** A stdio server's stderr (ConnectOptions.onStderr). */
  readonly onStderr?: (text: string) => void;
  /**
   * The bearer token for this origin's Streamable HTTP server (ConnectOptions.bearerToken);
   * default none. The caller decides which origins get one: a lock names any server it likes.
   */
  readonly bearerToken?: string;
  /** Reach a server at a URL only at public addresses (ConnectOptions.publicOnly); default false. */
  readonly publicOnly?: boolean;
}

/** The findings for one pinned origin: none when the server's entry lists exactly the pinned files. */
export async function remoteDrift(origin: McpOrigin, opts: DriftOptions): Promise<Diagnostic[]> {
  return withoutToken(await driftOf(origin, opts), opts.bearerToken);
}

async function driftOf(origin: McpOrigin, opts: DriftOptions): Promise<Diagnostic[]> {
  const label = serverLabel(origin.server);
  const skill = parseSkillUri(origin.uri);
  if ('problem' in skill) return [diag('MCP_PULL_URI_REFUSED', skill.problem, { file: opts.file, pointer: '/origin/mcp/uri' })];
  let result: unknown;
  try {
    const server = await connectSkillServer(origin.server, {
      cwd: opts.cwd,
      timeoutMs: opts.timeoutMs,
      maxMessageBytes: maxMessageBytes(DEFAULT_PULL_LIMITS),
      ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
      ...(opts.onStderr !== undefined ? { onStderr: opts.onStderr } : {}),
      ...(opts.bearerToken !== undefined ? { bearerToken: opts.bearerToken } : {}),
      ...(opts.publicOnly === true ? { publicOnly: true } : {}),
    });
    try {
      result = await server.request('skills/get', { uri: origin.uri });
    } finally {
      await server.close().catch(() => undefined);
    }
  } catch (err) {
    if (!(err instanceof ServerFailure)) throw err;
    const d = err.diagnostic;
    if (err.rpcCode === -32602) return [diag('MCP_PIN_DRIFT', `${label} no longer serves ${origin.uri}`, { file: opts.file, pointer: '/origin/mcp/uri' })];
    if (d.code === 'PIN_ORIGIN_PRIVATE') return [{ ...d, file: opts.file, pointer: '/origin/mcp/server/url' }];
    return [{ ...d, file: opts.file }];
  }
  const entry = toGetResult(result);
  if ('problem' in entry) return [diag('MCP_PULL_RESPONSE_INVALID', `skills/get ${origin.uri}: ${entry.problem}`, { file: opts.file })];
  // The entry as a pull would take it (check-entry.ts): one for another URI, or one that lists a
  // file twice (`run.sh` with a new digest, then `run%2Esh` with the pinned one, which a map of
  // paths kept last), is refused, not compared. An entry without resources is drift, below.
  const refused = checkEntry(entry.value, DEFAULT_PULL_LIMITS, origin.uri).diagnostics.filter((d) => d.severity === 'error' && d.code !== 'MCP_PULL_NO_DIGESTS');
  // Named by the pin's folder, as every finding here is; the pointers into the answer are dropped.
  if (refused.length > 0) return refused.map((d) => diag(d.code, `skills/get ${origin.uri}: ${d.message}`, { file: opts.file, ...(d.hint !== undefined ? { hint: d.hint } : {}) }));
  const now = new Map<string, { digest: string; size?: number }>();
  for (const r of entry.value.resources ?? []) {
    const p = filePathOf(skill, r.uri);
    if ('problem' in p) return [diag('MCP_PULL_URI_REFUSED', p.problem, { file: opts.file })];
    now.set(p.path, { digest: r.digest, ...(r.size !== undefined ? { size: r.size } : {}) });
  }
  const pinned = new Map(origin.files.map((f) => [f.path, f]));
  const changes: string[] = [];
  for (const [path, f] of pinned) {
    const n = now.get(path);
    if (n === undefined) changes.push(`${path} removed`);
    else if (n.digest !== f.digest || (n.size !== undefined && n.size !== f.size)) changes.push(`${path} changed`);
  }
  for (const path of now.keys()) if (!pinned.has(path)) changes.push(`${path} added`);
  if (entry.value.resources === undefined) changes.push('the entry lists no resources any more');
  if (changes.length === 0) return [];
  changes.sort();
  return [
    diag('MCP_PIN_DRIFT', `${label} now serves ${origin.uri} with another resource set: ${changes.slice(0, 20).join(', ')}${changes.length > 20 ? `, and ${changes.length - 20} more` : ''}`, {
      file: opts.file,
      pointer: '/origin/mcp/files',
      hint: 'the pinned approval no longer covers what the server serves: review the change, pull again and re-pin',
    }),
  ];
}
