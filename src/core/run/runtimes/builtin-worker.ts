/**
 * Built-ins in a worker thread, so that a limit can stop them: at the deadline the thread is
 * terminated (a loop that never looks at its signal stops too) and every process group it started
 * is killed; its heap is capped at max_memory, and running out ends the run as memory_limit. The
 * thread tells this side each policy question (for the audit record), each program it starts and
 * when a commit is under way: the deadline waits for a commit, within COMMIT_GRACE_MS, so that
 * fs.write_patch leaves the tree as it was or as it completed it, never between.
 */
import { rm, rmdir } from 'node:fs/promises';
import type { ResourceLimits } from 'node:worker_threads';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { capLimits, type GateUse, type HostPolicy } from '../../policy/index.js';
import { resolveLimits, type Manifest } from '../../manifest/index.js';
import { selectEntrypoint } from '../select.js';
import { failed, interrupted, type Attempt } from '../attempt.js';
import type { BuiltinOutcome } from '../builtin.js';
import { killGroup } from '../process-runner.js';
import { closeInheritedFds } from '../inherited-fds.js';
import { builtinThreadLimits, COMMIT_GRACE_MS } from '../thread-limits.js';
import { builtinAttempt, threw, timedOut, type BuiltinJob, type BuiltinObserver } from './builtin.js';

/**
 * At the deadline the skill's signal is aborted, so a skill that watches it (shell.exec_safe
 * killing its command) ends with its own report; this long after, the thread is terminated
 * whatever it is doing.
 */
export const STOP_GRACE_MS = 500;

/** The messages a worker thread sends while it serves a job. */
export type WorkerMessage =
  /** The skill starts now: its time runs from here, not from the thread's start. */
  | { readonly t: 'started' }
  | { readonly t: 'use'; readonly use: GateUse }
  | { readonly t: 'confined'; readonly sandbox: 'bwrap' | 'none'; readonly diagnostics: readonly Diagnostic[] }
  | { readonly t: 'proc'; readonly pid: number; readonly exited: boolean }
  | { readonly t: 'commit'; readonly open: boolean }
  | { readonly t: 'scratch'; readonly path: string; readonly kind: 'file' | 'dir' }
  | { readonly t: 'outcome'; readonly outcome: BuiltinOutcome }
  | { readonly t: 'missing' }
  | { readonly t: 'threw'; readonly message: string };

/** The part of node:worker_threads' Worker this side uses. */
export interface BuiltinThread {
  postMessage(value: unknown): void;
  on(event: 'message', listener: (m: WorkerMessage) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

/** How the run starts built-in threads (the CLI knows where its bundles are). */
export interface BuiltinWorkers {
  /** A thread that serves one job (`serveBuiltinJob`), with the heap limits given. */
  start(limits: ResourceLimits): BuiltinThread;
  /** Whether this skillctl has `builtin:<id>`, without starting a thread. */
  has(skillId: string): boolean;
}

/**
 * The thread limits a run of `manifest`'s entrypoint (`entrypointId`, or the default one) gets
 * under `policy`, worked out as the engine works them out (the entrypoint it selects, its
 * declared limits lowered to the policy's caps); undefined when no entrypoint is selected.
 */
export function expectedThreadLimits(manifest: Manifest, entrypointId: string | undefined, policy: HostPolicy): ResourceLimits | undefined {
  const ep = selectEntrypoint(manifest, entrypointId);
  if (!('entrypoint_id' in ep)) return undefined;
  return builtinThreadLimits(capLimits(resolveLimits(ep.runtime_limits), policy.limits).limits.memoryMiB);
}

/**
 * Removes what a stopped skill left on its way to a result: its temporary files, then the
 * directories it made (deepest first, and only if empty). The names are the skill's own fresh
 * ones, so a path that has since come to lead elsewhere finds nothing to remove.
 */
async function removeScratch(scratch: readonly { path: string; kind: 'file' | 'dir' }[]): Promise<void> {
  for (const s of scratch.filter((x) => x.kind === 'file')) await rm(s.path, { force: true }).catch(() => undefined);
  const dirs = scratch.filter((x) => x.kind === 'dir').map((x) => x.path);
  for (const d of dirs.sort((a, b) => b.length - a.length)) await rmdir(d).catch(() => undefined);
}

export function runBuiltinInWorker(workers: BuiltinWorkers, job: BuiltinJob, uses: GateUse[], observer: Pick<BuiltinObserver, 'confined'>, outer?: AbortSignal): Promise<Attempt> {
  // Here, before the thread starts a program: a worker thread tracks the descriptors it opens,
  // and node warns on stderr for each one it closes that it did not ("closed but not opened in
  // unmanaged mode"). The thread then finds none left to close.
  closeInheritedFds();
  const worker = workers.start(builtinThreadLimits(job.limits.memoryMiB));
  const groups = new Set<number>();
  let scratch: { path: string; kind: 'file' | 'dir' }[] = [];
  let committing = false;
  let settled = false;
  return new Promise<Attempt>((resolve) => {
    const timers: { deadline?: NodeJS.Timeout; hard?: NodeJS.Timeout; grace?: NodeJS.Timeout } = {};
    const end = (attempt: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timers.deadline);
      clearTimeout(timers.hard);
      clearTimeout(timers.grace);
      outer?.removeEventListener('abort', onOuter);
      for (const pid of groups) killGroup(pid);
      const left = scratch;
      void worker.terminate().then(() => removeScratch(left)).then(() => resolve(attempt));
    };
    const stop = (attempt: Attempt): void => {
      if (!committing) return end(attempt);
      // A commit under way finishes (or its grace runs out) before the thread is stopped.
      timers.grace ??= setTimeout(() => end(attempt), COMMIT_GRACE_MS);
      pendingStop = attempt;
    };
    let pendingStop: Attempt | undefined;
    const onOuter = (): void => stop(interrupted());
    outer?.addEventListener('abort', onOuter, { once: true });
    const startClock = (): void => {
      timers.deadline = setTimeout(() => {
        worker.postMessage({ t: 'abort' });
        timers.hard = setTimeout(() => stop(timedOut(job.limits)), STOP_GRACE_MS);
      }, job.limits.timeoutMs);
    };

    worker.on('message', (m: WorkerMessage) => {
      switch (m.t) {
        case 'started':
          startClock();
          return;
        case 'use':
          uses.push(m.use);
          return;
        case 'confined':
          observer.confined(m.sandbox, m.diagnostics);
          return;
        case 'proc':
          if (m.exited) groups.delete(m.pid);
          else groups.add(m.pid);
          return;
        case 'commit':
          committing = m.open;
          if (!m.open) scratch = []; // the commit took over (or removed) what was registered
          if (!m.open && pendingStop !== undefined) end(pendingStop);
          return;
        case 'scratch':
          scratch.push({ path: m.path, kind: m.kind });
          return;
        case 'outcome':
          // An outcome that arrives after the deadline (a commit that finished in its grace) stands:
          // the tree is as the skill completed it, and the record says so.
          return end(builtinAttempt(m.outcome, job.limits));
        case 'missing':
          return end({ outcome: failed('unavailable', [diag('RUN_BUILTIN_UNKNOWN', `this skillctl has no builtin:${job.skillId}`, { pointer: '/command' })]), stdoutTruncated: false, stderrTruncated: false });
        case 'threw':
          return end(threw(m.message));
        default: {
          const never: never = m;
          return never;
        }
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        end({ outcome: failed('memory_limit', [diag('RUN_MEMORY_LIMIT', `the skill ran out of its ${job.limits.memoryMiB} MiB memory allowance and was stopped`)]), stdoutTruncated: false, stderrTruncated: false });
      } else {
        end(threw(err.message));
      }
    });
    worker.on('exit', () => end(threw('its thread ended without an outcome')));
    worker.postMessage(job);
  });
}
