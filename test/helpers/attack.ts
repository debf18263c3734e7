/**
 * The attack suite's rows (test/security/): a scratch folder per suite, a sentinel tree beside it
 * that every attack aims at, and `skillctl run` as a user or an agent starts it. A row names its
 * input, the code it must end with and the exit status; the table runner then checks that nothing
 * in the sentinel changed, whatever the outcome. A run that does not finish within the hang guard
 * fails its row instead of hanging the suite.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { skillctlAsync } from './cli.js';
import { HANG_GUARD_MS } from './hostile.js';
import { tempDir } from './tmp.js';

/** What an attack must never print: the sentinel's secret. */
export const SECRET = 'SENTINEL-SECRET-2718';

/**
 * Every entry under `dir` by relative path: kind, mode, size, modification time, and a digest of a
 * regular file's bytes, or a link's target. `dirTimes: false` leaves out directories' times (and
 * sizes), which a file created and removed again (a lock) changes.
 */
export async function treeState(dir: string, opts: { dirTimes?: boolean } = {}): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    const abs = rel === '' ? dir : join(dir, rel);
    // lstat: a link is recorded, never followed; a FIFO or a device is recorded by kind, never opened.
    const st = await lstat(abs);
    const times = opts.dirTimes !== false || !st.isDirectory() ? ` ${st.size} ${st.mtimeMs}` : '';
    const head = `${(st.mode & 0o170000).toString(8)} ${(st.mode & 0o7777).toString(8)}${times}`;
    if (st.isSymbolicLink()) out.set(rel, `${head} -> ${await readlink(abs)}`);
    else if (st.isFile()) out.set(rel, `${head} ${createHash('sha256').update(await readFile(abs)).digest('hex')}`);
    else out.set(rel, head);
    if (st.isDirectory()) for (const name of (await readdir(abs)).sort()) await walk(rel === '' ? name : `${rel}/${name}`);
  };
  await walk('');
  return out;
}

export interface Scratch {
  /** The suite's folder (real path): `work` and `outside` are in it. */
  readonly root: string;
  /** The project an attack runs in: its working directory and its grants. */
  readonly work: string;
  /** The sentinel: what the attacks aim at, outside every grant. Holds secret.txt. */
  readonly outside: string;
}

/**
 * A scratch folder removed after the test file: `work/` (a git work tree's top, so that it is
 * the project root) and `outside/secret.txt` holding SECRET. Call it where the suite is
 * declared (tempDir registers its removal with the file, not with a hook).
 */
export function scratch(prefix: string): Scratch {
  const root = realpathSync(tempDir(prefix));
  const s = { root, work: join(root, 'work'), outside: join(root, 'outside') };
  mkdirSync(join(s.work, '.git'), { recursive: true });
  mkdirSync(s.outside);
  writeFileSync(join(s.outside, 'secret.txt'), `${SECRET}\n`);
  return s;
}

/** What a `skillctl … --json` command answered. */
export interface Ran {
  readonly exit: number;
  /** The run's status (`skillctl run`); other commands have none. */
  readonly status: string | undefined;
  /** The distinct codes of error findings anywhere in the answer, sorted. */
  readonly errors: string[];
  /** The run's output (`skillctl run`). */
  readonly output: unknown;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOpts {
  readonly cwd: string;
  readonly input?: string;
  readonly env?: Record<string, string | undefined>;
  /** Descriptors skillctl inherits from 3 on (skillctlAsync's `fds`). */
  readonly fds?: readonly (number | 'ignore')[];
}

/** Every `{code, severity: 'error'}` and every `error: {code}` in a JSON answer, whatever the command's document shape. */
function errorCodes(doc: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(doc)) for (const x of doc) errorCodes(x, out);
  else if (doc !== null && typeof doc === 'object') {
    const o = doc as Record<string, unknown>;
    if (typeof o.code === 'string' && o.severity === 'error') out.add(o.code);
    const error = o.error as { code?: unknown } | null | undefined;
    if (typeof error?.code === 'string') out.add(error.code);
    for (const v of Object.values(o)) errorCodes(v, out);
  }
  return out;
}

/** `skillctl <args> --json`; fails the test if it does not finish within the hang guard or does not answer JSON. */
export async function attempt(args: readonly string[], opts: CliOpts): Promise<Ran> {
  const t0 = Date.now();
  const r = await skillctlAsync([...args, '--json'], { cwd: opts.cwd, input: opts.input ?? '', timeoutMs: HANG_GUARD_MS, ...(opts.env !== undefined ? { env: opts.env } : {}), ...(opts.fds !== undefined ? { fds: opts.fds } : {}) });
  if (r.code === -1) assert.fail(`skillctl ${args.join(' ')} did not finish within ${HANG_GUARD_MS} ms (${Date.now() - t0} ms)`);
  let doc: unknown;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    return assert.fail(`stdout is not JSON (exit ${r.code}):\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`);
  }
  const run = doc as { status?: string; output?: unknown };
  return { exit: r.code, status: run.status, errors: [...errorCodes(doc, new Set())].sort(), output: run.output, stdout: r.stdout, stderr: r.stderr };
}

export interface RunOpts extends CliOpts {
  /** A policy file; default: none (the default policy). */
  readonly policy?: string;
  readonly sandbox?: 'auto' | 'bwrap' | 'none';
  /** An audit log to append to; default: none (--no-audit). */
  readonly audit?: string;
}

/** `skillctl run <target> --input - --json`, the input on stdin. */
export function runTarget(target: string, input: unknown, opts: RunOpts): Promise<Ran> {
  const args = [
    'run',
    target,
    '--input',
    '-',
    ...(opts.audit !== undefined ? ['--audit', opts.audit] : ['--no-audit']),
    ...(opts.policy !== undefined ? ['--policy', opts.policy] : []),
    ...(opts.sandbox !== undefined ? ['--sandbox', opts.sandbox] : []),
  ];
  return attempt(args, { ...opts, input: typeof input === 'string' ? input : JSON.stringify(input) });
}

export interface Attack {
  readonly what: string;
  /** The error code the run must end with; null: the run succeeds (the attack gets nothing). */
  readonly code: string | null;
  readonly exit: number;
  readonly attempt: (s: Scratch) => Promise<Ran>;
  /** Also true of the answer (what a harmless success returned). */
  readonly check?: (r: Ran, s: Scratch) => void | Promise<void>;
}

/** One test per row: the code, the exit status, no SECRET in the answer, and the sentinel exactly as it was. */
export function attackRows(rows: readonly Attack[], sc: Scratch): void {
  for (const row of rows) {
    it(`${row.what}: ${row.code ?? 'no error'}, exit ${row.exit}`, async () => {
      const before = await treeState(sc.outside);
      const r = await row.attempt(sc);
      const said = `${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`;
      if (row.code === null) assert.deepEqual([r.exit, r.errors], [row.exit, []], said);
      else assert.deepEqual([r.exit, r.errors.includes(row.code)], [row.exit, true], `${row.code} expected, got ${r.errors.join(', ')}\n${said}`);
      assert.ok(!r.errors.includes('INTERNAL'), said);
      assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), 'the sentinel secret leaked');
      await row.check?.(r, sc);
      assert.deepEqual(await treeState(sc.outside), before, 'nothing outside the scratch folder changed');
    });
  }
}
