/**
 * The host's side of the provenact hostcalls that reach beyond the module: files, the network,
 * the clock, randomness, key-value and queue stores. They run in the run's own thread, behind the
 * same gate and checked file layer as the built-in skills (symlinks resolved by what was opened,
 * `..` refused, private addresses and redirects refused), while the module's thread waits for the
 * answer (thread.ts). A refusal is an answer too: the module's thread traps on it.
 *
 * Every answer is one of: the bytes asked for, a failure (-1 to the guest, as provenact returns
 * for a missing file, a body larger than the buffer, a redirect, a network error), or a refusal.
 */
import type { Code } from '../../diagnostics.js';
import { isFailure, type CheckedDir, type CheckedFs, type FsFailure, type PolicyDecision, type RecordingGate } from '../../policy/index.js';
import { httpGet, AddressBlocked, urlWithHost } from '../../../skills/lib/http-get.js';

/** A hostcall the module's thread asks the host for. */
export type HostRequest =
  | { readonly op: 'fs_read_file'; readonly path: string; readonly max: number }
  | { readonly op: 'fs_read_tree'; readonly path: string; readonly max: number }
  | { readonly op: 'fs_write_file'; readonly path: string; readonly data: Uint8Array }
  | { readonly op: 'http_fetch'; readonly url: string; readonly max: number }
  | { readonly op: 'time_now_unix' | 'random_fill' | 'kv_put' | 'kv_get' | 'queue_publish' | 'queue_consume' };

export type HostAnswer =
  | { readonly kind: 'ok'; readonly data?: Uint8Array }
  | { readonly kind: 'fail' }
  | { readonly kind: 'denied'; readonly code: Code; readonly reason: string; readonly operation: string };

/** provenact's tree bounds: entries and cumulative file bytes. */
export const TREE_MAX_ENTRIES = 10_000;
export const TREE_MAX_BYTES = 64 * 1024 * 1024;
/** provenact's HTTP timeout for the whole exchange. */
export const HTTP_TIMEOUT_MS = 10_000;

const FAIL: HostAnswer = { kind: 'fail' };

function refused(d: Extract<PolicyDecision, { allowed: false }>, operation: string): HostAnswer {
  return { kind: 'denied', code: d.code, reason: d.reason, operation };
}

function failureAnswer(f: FsFailure, operation: string): HostAnswer {
  return f.kind === 'denied' ? refused(f.decision, operation) : FAIL;
}

export interface HostcallContext {
  readonly gate: RecordingGate;
  readonly files: CheckedFs;
  readonly userAgent: string;
  /** Aborted when the run is stopped: an HTTP exchange is cut, a tree walk ends (host-work.ts). */
  readonly signal: AbortSignal;
}

async function readFile(ctx: HostcallContext, path: string, max: number): Promise<HostAnswer> {
  const f = await ctx.files.openFile(path);
  if (isFailure(f)) return failureAnswer(f, 'fs_read_file');
  try {
    // No truncation: a file larger than the guest's buffer is a failure, as in provenact.
    if (f.size > max) return FAIL;
    const data = await f.read(max + 1);
    return data.length > max ? FAIL : { kind: 'ok', data };
  } finally {
    await f.close();
  }
}

interface TreeEntry {
  readonly path: string;
  readonly kind: 'file' | 'dir';
  readonly bytes?: number;
}

/** provenact's tree: every file and directory below the root (symlinks skipped), sorted by path. */
async function readTree(ctx: HostcallContext, root: string, max: number): Promise<HostAnswer> {
  const top = await ctx.files.openDir(root, 'fs.read');
  if (isFailure(top)) return failureAnswer(top, 'fs_read_tree');
  const entries: TreeEntry[] = [];
  let total = 0;
  let truncated = false;
  const walk = async (dir: CheckedDir, prefix: string): Promise<FsFailure | undefined> => {
    const names = (await dir.entries()).map((e) => e.name).sort();
    for (const name of names) {
      // Nobody waits for the answer of a stopped run: the walk ends here.
      if (ctx.signal.aborted) return { kind: 'error', code: 'ECANCELED' };
      if (entries.length >= TREE_MAX_ENTRIES || total > TREE_MAX_BYTES) {
        truncated = true;
        return undefined;
      }
      const st = await dir.lstat(name);
      if ('kind' in st) continue;
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if (st.isDirectory()) {
        entries.push({ path, kind: 'dir' });
        const child = await dir.dir(name);
        if (isFailure(child)) {
          if (child.kind === 'denied') return child;
          continue;
        }
        try {
          const f = await walk(child, path);
          if (f !== undefined) return f;
        } finally {
          await child.close();
        }
      } else if (st.isFile()) {
        entries.push({ path, kind: 'file', bytes: st.size });
        total += st.size;
      }
    }
    return undefined;
  };
  try {
    const f = await walk(top, '');
    if (f !== undefined) return failureAnswer(f, 'fs_read_tree');
  } finally {
    await top.close();
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Keys in alphabetical order, compact, as provenact's serde_json writes them.
  const json = JSON.stringify({ entries: entries.map((e) => (e.kind === 'file' ? { bytes: e.bytes, kind: e.kind, path: e.path } : { kind: e.kind, path: e.path })), root, truncated });
  const data = Buffer.from(json);
  return data.length > max ? FAIL : { kind: 'ok', data };
}

/** Writes atomically (a temporary file in the checked parent, then a rename), creating missing parents. */
async function writeFile(ctx: HostcallContext, path: string, data: Uint8Array): Promise<HostAnswer> {
  const decision = await ctx.gate.checkWrite(path);
  if (!decision.allowed) return refused(decision, 'fs_write_file');
  const real = decision.resolved;
  const cut = real.lastIndexOf('/');
  const parent = cut <= 0 ? '/' : real.slice(0, cut);
  const name = real.slice(cut + 1);
  let dir = await ctx.files.openDir(parent, 'fs.write');
  if (isFailure(dir) && dir.kind === 'missing') dir = await makeParents(ctx, parent);
  if (isFailure(dir)) return failureAnswer(dir, 'fs_write_file');
  try {
    const temp = await dir.writeTemp(name, data, 0o644);
    if (typeof temp !== 'string') return failureAnswer(temp, 'fs_write_file');
    const moved = await dir.rename(temp, name);
    if (moved !== undefined) {
      await dir.remove(temp);
      return failureAnswer(moved, 'fs_write_file');
    }
    return { kind: 'ok' };
  } finally {
    await dir.close();
  }
}

/** Opens the deepest existing ancestor of `path` and creates the rest, each step checked. */
async function makeParents(ctx: HostcallContext, path: string): Promise<CheckedDir | FsFailure> {
  const parts = path.split('/').filter((p) => p !== '');
  let i = parts.length;
  let dir: CheckedDir | FsFailure = { kind: 'missing' };
  while (i > 0) {
    i--;
    dir = await ctx.files.openDir(`/${parts.slice(0, i).join('/')}`, 'fs.write');
    if (!isFailure(dir) || dir.kind !== 'missing') break;
  }
  if (isFailure(dir)) return dir;
  for (const name of parts.slice(i)) {
    const next: CheckedDir | FsFailure = await dir.makeDir(name);
    await dir.close();
    if (isFailure(next)) return next;
    dir = next;
  }
  return dir;
}

/** GET only, no redirects (a 3xx fails), the body at most `max` bytes, the address checked and pinned. */
async function fetch(ctx: HostcallContext, raw: string, max: number): Promise<HostAnswer> {
  const decision = await ctx.gate.checkUrl(raw);
  if (!decision.allowed) return refused(decision, 'http_fetch');
  const url = new URL(decision.resolved);
  const allowSpecial = async (address: string): Promise<boolean> => {
    const named = urlWithHost(url, address);
    return named === url.href || (await ctx.gate.checkUrl(named)).allowed;
  };
  // provenact's timeout for the whole exchange, or the run's end, whichever comes first.
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(HTTP_TIMEOUT_MS)]);
  try {
    const res = await httpGet(url, { max, signal, allowSpecial, userAgent: ctx.userAgent, ...(decision.address !== undefined ? { pinned: decision.address } : {}) });
    if (res.status < 200 || res.status > 299) return FAIL;
    return res.body.length > max ? FAIL : { kind: 'ok', data: res.body };
  } catch (err) {
    if (err instanceof AddressBlocked) {
      ctx.gate.recordRefusal('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the host resolves to a non-public address the policy does not name');
      return { kind: 'denied', code: 'POLICY_ADDRESS_PRIVATE', reason: 'net.http: the host resolves to a non-public address the policy does not name', operation: 'http_fetch' };
    }
    return FAIL;
  }
}

/**
 * The provenact capabilities skillctl's permission model has no scope for (time.now, random.bytes,
 * kv.*, queue.*): no manifest can request them and no policy grant them, so the call is refused.
 */
const UNSCOPED: Record<string, string> = {
  time_now_unix: 'time.now',
  random_fill: 'random.bytes',
  kv_put: 'kv.write',
  kv_get: 'kv.read',
  queue_publish: 'queue.publish',
  queue_consume: 'queue.consume',
};

export async function serveHostcall(ctx: HostcallContext, req: HostRequest): Promise<HostAnswer> {
  switch (req.op) {
    case 'fs_read_file':
      return readFile(ctx, req.path, req.max);
    case 'fs_read_tree':
      return readTree(ctx, req.path, req.max);
    case 'fs_write_file':
      return writeFile(ctx, req.path, req.data);
    case 'http_fetch':
      return fetch(ctx, req.url, req.max);
    default: {
      const capability = UNSCOPED[req.op] ?? req.op;
      return { kind: 'denied', code: 'RUN_WASM_CAPABILITY_UNSUPPORTED', reason: `${capability}: skillctl grants no ${capability} capability, so ${req.op} is refused`, operation: req.op };
    }
  }
}
