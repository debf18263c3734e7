/**
 * Validating many files on every core: for a large run the targets are shared out over worker
 * threads (YAML parsing is CPU-bound). A worker starts through dist/boot.cjs and loads the
 * validate chunk with its V8 code cache (see src/boot.cjs), then runs `runWorker` on its share.
 */
import type { AgentSkillOptions } from '../core/agent-skills/index.js';
import type { Context } from './context.js';
import type { Target } from './inputs.js';
import { checkTarget, CONCURRENCY, mapLimited, type Checked, type WorkerRequest } from './validate-targets.js';

/** Below this many targets a worker costs more to start than it saves. */
const PARALLEL_THRESHOLD = 200;

/** Worker-thread side: validates its share of the targets and posts the plain results back. */
export async function runWorker(job: WorkerRequest): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  try {
    const results = await mapLimited(job.targets, CONCURRENCY, (t) => checkTarget(job.cwd, t, job.fix, job.skill));
    parentPort?.postMessage({ ok: true, results });
  } catch (err) {
    parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}

async function inWorker(boot: string, job: WorkerRequest): Promise<Checked[]> {
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolvePromise, reject) => {
    // Started through dist/boot.cjs, so the worker runs this same chunk with its code cache.
    const w = new Worker(boot, { argv: ['--skillctl-worker'], workerData: { chunk: 'cmd/validate.cjs', entry: 'runWorker', job } });
    w.once('message', (m: { ok: boolean; results?: Checked[]; error?: string }) => {
      if (m.ok && m.results !== undefined) resolvePromise(m.results);
      else reject(new Error(m.error ?? 'validate worker failed'));
      void w.terminate();
    });
    w.once('error', reject);
  });
}

/**
 * Validates file targets, in this thread and, for large runs, in worker threads. Targets are dealt
 * round-robin so each thread gets a similar mix; the order of the results is the order of the targets.
 */
export async function checkFiles(ctx: Context, targets: readonly Exclude<Target, { kind: 'stdin' }>[], fix: boolean, skill: AgentSkillOptions): Promise<Checked[]> {
  const boot = (globalThis as Record<symbol, unknown>)[Symbol.for('skillctl.workerBoot')];
  const inThisThread = (): Promise<Checked[]> => mapLimited(targets, CONCURRENCY, (t) => checkTarget(ctx.io.cwd, t, fix, skill));
  if (targets.length < PARALLEL_THRESHOLD || typeof boot !== 'string') return inThisThread();
  // SKILLCTL_THREADS caps the threads (1: none), for machines shared with other jobs.
  const cap = Number(ctx.io.env.SKILLCTL_THREADS ?? 4);
  const { availableParallelism } = await import('node:os');
  const threads = Math.max(1, Math.min(availableParallelism(), Number.isInteger(cap) && cap > 0 ? cap : 4));
  if (threads < 2) return inThisThread();
  const shares = Array.from({ length: threads }, (_, k) => targets.filter((_, i) => i % threads === k));
  const parts = await Promise.all(
    shares.map((share, k) =>
      k === 0
        ? mapLimited(share, CONCURRENCY, (t) => checkTarget(ctx.io.cwd, t, fix, skill))
        : inWorker(boot, { kind: 'skillctl.validate', cwd: ctx.io.cwd, fix, skill, targets: share }),
    ),
  );
  return targets.map((_, i) => (parts[i % threads] as Checked[])[Math.floor(i / threads)] as Checked);
}
