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
  | { readonly op: 'fs_write_file'; readonly path: string; readonly data: Uint8Array; readonly maxDirs: number }
  | { readonly op: 'http_fetch'; readonly url: string; readonly max: number }
  | { readonly op: 'time_now_unix' | 'random_fill' | 'kv_put' | 'kv_get' | 'queue_publish' | 'queue_consume' };

/**
 * `made`: the directories an fs_write_file created; `walked`: the entries an fs_read_tree looked
 * at. The module's thread pays fuel for each, whatever the call's outcome.
 */
export type HostAnswer =
  | { readonly kind: 'ok'; readonly data?: Uint8Array; readonly made?: number; readonly walked?: number }
  | { readonly kind: 'fail'; readonly made?: number; readonly walked?: number }
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
  let walked = 0;
  const walk = async (dir: CheckedDir, prefix: string): Promise<FsFailure | undefined> => {
    const names = (await dir.entries()).map((e) => e.name).sort();
    for (const name of names) {
      // Nobody waits for the answer of a stopped run: the walk ends here.
      if (ctx.signal.aborted) return { kind: 'error', code: 'ECANCELED' };
      if (entries.length >= TREE_MAX_ENTRIES || total > TREE_MAX_BYTES) {
        truncated = true;
        return undefined;
      }
      walked++;
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
    if (f !== undefined) {
      const a = failureAnswer(f, 'fs_read_tree');
      return a.kind === 'fail' ? { kind: 'fail', walked } : a;
    }
  } finally {
    await top.close();
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Keys in alphabetical order, compact, as provenact's serde_json writes them.
  const json = JSON.stringify({ entries: entries.map((e) => (e.kind === 'file' ? { bytes: e.bytes, kind: e.kind, path: e.path } : { kind: e.kind, path: e.path })), root, truncated });
  const data = Buffer.from(json);
  return data.length > max ? { kind: 'fail', walked } : { kind: 'ok', data, walked };
}

/**
 * Writes atomically (a temporary file in the checked parent, then a rename), creating missing
 * parents, at most `maxDirs` of them (what the module's fuel pays for, thread.ts): past it the
 * call fails, nothing created. The answer says how many it created, whatever its outcome.
 */
async function writeFile(ctx: HostcallContext, path: string, data: Uint8Array, maxDirs: number): Promise<HostAnswer> {
  const decision = await ctx.gate.checkWrite(path);
  if (!decision.allowed) return refused(decision, 'fs_write_file');
  const real = decision.resolved;
  const cut = real.lastIndexOf('/');
  const parent = cut <= 0 ? '/' : real.slice(0, cut);
  const name = real.slice(cut + 1);
  let made = 0;
  let dir = await ctx.files.openDir(parent, 'fs.write');
  if (isFailure(dir) && dir.kind === 'missing') {
    const p = await makeParents(ctx, parent, maxDirs);
    [dir, made] = [p.dir, p.made];
  }
  const failed = (f: FsFailure): HostAnswer => {
    const a = failureAnswer(f, 'fs_write_file');
    return a.kind === 'fail' ? { kind: 'fail', made } : a;
  };
  if (isFailure(dir)) return failed(dir);
  try {
    const temp = await dir.writeTemp(name, data, 0o644);
    if (typeof temp !== 'string') return failed(temp);
    const moved = await dir.rename(temp, name);
    if (moved !== undefined) {
      await dir.remove(temp);
      return failed(moved);
    }
    return { kind: 'ok', made };
  } finally {
    await dir.close();
  }
}

/**
 * Opens the deepest existing ancestor of `path` and creates the rest, each step checked, when
 * they are at most `maxDirs`. The ancestor is found by halving (an ancestor of a missing one is
 * missing): looked for one level at a time from the deepest, a path of 1,900 missing levels took
 * the run's thread 10 s a call.
 */
async function makeParents(ctx: HostcallContext, path: string, maxDirs: number): Promise<{ dir: CheckedDir | FsFailure; made: number }> {
  const parts = path.split('/').filter((p) => p !== '');
  const prefix = (n: number): string => `/${parts.slice(0, n).join('/')}`;
  // The first `lo` parts exist (the root does), the first `hi` are missing (the whole path is).
  let lo = 0;
  let hi = parts.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const d = await ctx.files.openDir(prefix(mid), 'fs.write');
    if (!isFailure(d)) await d.close();
    if (isFailure(d) && d.kind === 'missing') hi = mid;
    else lo = mid;
  }
  if (parts.length - lo > maxDirs) return { dir: { kind: 'missing' }, made: 0 };
  let dir: CheckedDir | FsFailure = await ctx.files.openDir(prefix(lo), 'fs.write');
  let made = 0;
  for (const name of parts.slice(lo)) {
    if (isFailure(dir)) break;
    const next: CheckedDir | FsFailure = await dir.makeDir(name);
    await dir.close();
    if (!isFailure(next)) made++;
    dir = next;
  }
  return { dir, made };
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
      return writeFile(ctx, req.path, req.data, req.maxDirs);
    case 'http_fetch':
      return fetch(ctx, req.url, req.max);
    default: {
      const capability = UNSCOPED[req.op] ?? req.op;
      return { kind: 'denied', code: 'RUN_WASM_CAPABILITY_UNSUPPORTED', reason: `${capability}: skillctl grants no ${capability} capability, so ${req.op} is refused`, operation: req.op };
    }
  }
}
