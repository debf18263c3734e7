/**
 * The worker-thread side of a built-in run (builtin-worker.ts is the other): it receives one job,
 * builds the skill's context over the job's grant, runs the skill and reports every policy
 * question, program and commit as it happens, then the outcome. It trusts nothing but the job.
 */
import type { BuiltinLookup } from './builtin.js';
import { builtinContext, builtinGate, recordSelfRefusal, type BuiltinJob, type BuiltinObserver } from './builtin.js';
import type { WorkerMessage } from './builtin-worker.js';

export interface JobPort {
  postMessage(m: WorkerMessage): void;
  /** The run's `{ t: 'abort' }` at the deadline. */
  on(event: 'message', listener: (m: unknown) => void): unknown;
}

export async function serveBuiltinJob(job: BuiltinJob, lookup: BuiltinLookup, port: JobPort): Promise<void> {
  try {
    const skill = await lookup(job.skillId);
    if (skill === undefined) return port.postMessage({ t: 'missing' });
    const gate = builtinGate(job, (use) => port.postMessage({ t: 'use', use }));
    const observer: BuiltinObserver = {
      confined: (sandbox, diagnostics) => port.postMessage({ t: 'confined', sandbox, diagnostics }),
      process: (pid, exited) => port.postMessage({ t: 'proc', pid, exited }),
      committing: (open) => port.postMessage({ t: 'commit', open }),
      scratch: (path, kind) => port.postMessage({ t: 'scratch', path, kind }),
    };
    // At the deadline the run aborts the signal, then, a moment later, terminates this thread.
    const controller = new AbortController();
    port.on('message', (m) => {
      if ((m as { t?: unknown }).t === 'abort') controller.abort(new Error('timeout'));
    });
    const ctx = builtinContext(job, gate, observer, controller.signal, () => Number(process.hrtime.bigint()) / 1e6);
    port.postMessage({ t: 'started' });
    const outcome = await skill.run(job.input, ctx);
    recordSelfRefusal(gate, outcome);
    port.postMessage({ t: 'outcome', outcome });
  } catch (err) {
    port.postMessage({ t: 'threw', message: err instanceof Error ? err.message : String(err) });
  }
}
