/**
 * The builtin runtime: a skill of the default bundle runs with the grant and the gate, reaching
 * files through the checked layer and programs through the run's sandbox. The CLI runs it in a
 * worker thread that the deadline stops (builtin-worker.ts); a library caller that passes its
 * own skills (`BuiltinLookup`) runs them in this thread, where the deadline can only abort their
 * signal and stop waiting.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { canonicalize } from '../../digest/index.js';
import { checkedFs, createPolicyGate, type GrantedPermissions, type HostLookup, type PolicyDenial, type RecordingGate } from '../../policy/index.js';
import { failed, interrupted, type Attempt } from '../attempt.js';
import type { BuiltinContext, BuiltinLimits, BuiltinOutcome, BuiltinSkill } from '../builtin.js';
import { egressEnv } from '../egress/bridge.js';
import { openEgress, planEgress } from '../egress/open.js';
import { descriptors } from '../grant-pins.js';
import type { EgressGate } from '../egress/proxy.js';
import { spawnBounded, type SpawnOutcome, type SpawnSpec } from '../process-runner.js';
import { programDirs, sandboxPrefix, type SandboxMode } from '../sandbox.js';
import { findLimiter, isNodeProgram, limitArgs, ownDataKiB } from '../program-limits.js';
import { secretFilesIn } from '../secret-files.js';
import type { HostServices } from '../host-sockets.js';

/** Finds the implementation of `builtin:<skill_id>`; undefined when this skillctl has none. */
export type BuiltinLookup = (skillId: string) => Promise<BuiltinSkill | undefined>;

/** What a built-in run needs, as plain data (it crosses into a worker thread). */
export interface BuiltinJob {
  readonly skillId: string;
  readonly input: unknown;
  readonly cwd: string;
  readonly granted: GrantedPermissions;
  /** The scrubbed environment's PATH: commands and bwrap are looked up on it. */
  readonly pathEnv: string;
  /** Real paths of the policy's fs.write: a command or bwrap found inside one is refused (GateOptions.writable). */
  readonly writable: readonly string[];
  /** Real paths no skill may write (the policy in force and its directory, the lock, the audit log). */
  readonly protectedPaths: readonly string[];
  /** Real paths of files no skill may read (RunOptions.secretPaths). */
  readonly secretPaths: readonly string[];
  /** The host's services whose sockets a program's sandbox covers (host-sockets.ts). Default: none. */
  readonly services?: HostServices;
  readonly limits: BuiltinLimits;
  readonly env: Readonly<Record<string, string>>;
  readonly sandbox: SandboxMode;
  /** The policy's allow_unsandboxed: `auto` without bubblewrap runs programs unconfined instead of refusing. */
  readonly allowUnsandboxed: boolean;
  /** Goes before every program the skill starts: joins the run's cgroup, when there is one. */
  readonly processPrefix?: readonly string[];
}

/** What the run learns while a built-in works, wherever it runs. */
export interface BuiltinObserver {
  /** The sandbox a program ran in, with the findings about it (RUN_UNSANDBOXED). */
  confined(sandbox: 'bwrap' | 'none', diagnostics: readonly Diagnostic[]): void;
  /** A program's process group started (`exited` false) or ended. */
  process(pid: number, exited: boolean): void;
  /** A commit (BuiltinContext.commit) began (true) or ended (false). */
  committing(open: boolean): void;
  /** A file or directory to remove if the run is stopped before the next commit ends. */
  scratch(path: string, kind: 'file' | 'dir'): void;
}

export interface ConfineOptions {
  readonly mode: SandboxMode;
  readonly allowUnsandboxed: boolean;
  /** The scrubbed environment's PATH, where bwrap is looked up. */
  readonly pathEnv: string;
  /** Real paths of the policy's fs.write (SandboxRequest.writable). */
  readonly writable: readonly string[];
  readonly granted: Pick<GrantedPermissions, 'fsRead' | 'fsWrite' | 'netHttp'>;
  /** Real paths no program may write even inside a write grant (policy, lock, audit log). */
  readonly protectedPaths: readonly string[];
  /** Real paths of files no program may read: those inside a grant are covered with /dev/null (secretFilesIn). Default: none. */
  readonly secretPaths?: readonly string[];
  /** The host's services whose sockets the sandbox covers (host-sockets.ts). Default: none. */
  readonly services?: HostServices;
  /** Asked about each request a program makes through the egress proxy (net.http granted). */
  readonly gate: EgressGate;
  /** Told the sandbox each program runs in, with the findings about it (RUN_UNSANDBOXED). */
  readonly report: (sandbox: 'bwrap' | 'none', diagnostics: readonly Diagnostic[]) => void;
  /** Told each program's process group as it starts and ends. */
  readonly track?: (pid: number, exited: boolean) => void;
  /** Goes before the sandbox's own prefix (the run's cgroup). */
  readonly processPrefix?: readonly string[];
  /** The run's declared time zone, for /etc/localtime inside the sandbox. */
  readonly timezone?: string;
  /**
   * The run's memory limit in bytes: what each program's private /tmp and /dev/shm hold together
   * (SandboxSpec.tmpfsBytes). Default: unbounded.
   */
  readonly tmpfsBytes?: number;
  /**
   * The run's memory limit in bytes, when no cgroup holds the programs (no processPrefix): each
   * gets it as an rlimit inside its sandbox, with the process count where the sandbox counts its
   * own (program-limits.ts). Default: none.
   */
  readonly memoryBytes?: number;
}

/** A program that never started because its proxy could not (the skill reports spawnError as for ENOENT). */
function notStarted(diagnostics: readonly Diagnostic[]): SpawnOutcome {
  const reason = diagnostics[0]?.message ?? 'the egress proxy could not start';
  return { spawnError: reason, exitCode: null, signal: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), stderrTail: '', stdoutTruncated: false, stderrTruncated: false, timedOut: false, aborted: false, outputLimit: false, stopped: false, durationMs: 0 };
}

/** `ctx.confine` for a run: the process runtimes' sandbox (sandbox.ts), without a bundle. */
export function confiner(o: ConfineOptions): BuiltinContext['confine'] {
  return async (file, args, cwd) => {
    const egress = planEgress(o.granted.netHttp);
    const limiter = o.memoryBytes !== undefined ? await findLimiter(o.pathEnv, o.writable) : undefined;
    if (limiter !== undefined && 'refused' in limiter) return { ok: false, outcome: { status: 'unavailable', diagnostics: [limiter.refused] } };
    const c = await sandboxPrefix({
      mode: o.mode,
      allowUnsandboxed: o.allowUnsandboxed,
      pathEnv: o.pathEnv,
      writable: o.writable,
      cwd,
      runtimeDirs: [...(await programDirs(file)), ...(limiter?.path !== undefined ? await programDirs(limiter.path) : [])],
      read: o.granted.fsRead,
      write: o.granted.fsWrite,
      ...(egress !== undefined ? { egress: { readsHttps: egress.readsHttps, socket: egress.socket } } : {}),
      protect: o.protectedPaths,
      hideFiles: await secretFilesIn(o.secretPaths ?? [], [...o.granted.fsRead, ...o.granted.fsWrite]),
      ...(o.services !== undefined ? { services: o.services } : {}),
      ...(o.timezone !== undefined ? { timezone: o.timezone } : {}),
      ...(o.tmpfsBytes !== undefined ? { tmpfsBytes: o.tmpfsBytes } : {}),
    });
    if ('refused' in c) return { ok: false, outcome: { status: 'unavailable', diagnostics: [c.refused] } };
    o.report(c.sandbox, [...c.diagnostics, ...(limiter?.diagnostics ?? [])]);
    // Inside the sandbox, after the bridge (which the limits would not let start), as for a process runtime.
    const limits = limiter?.path !== undefined && o.memoryBytes !== undefined ? [limiter.path, ...limitArgs(o.memoryBytes, c.countsOwnProcesses === true, isNodeProgram(file) ? { baselineKiB: ownDataKiB() } : undefined), '--'] : [];
    const argv = [...(o.processPrefix ?? []), ...c.prefix, ...limits, file, ...args];
    // The grants' descriptors are held for one program: released once it ends.
    const spawn = async (spec: Omit<SpawnSpec, 'argv' | 'cwd'>, env: Readonly<Record<string, string>>, egressFds: readonly (number | Uint8Array)[] = []): Promise<SpawnOutcome> => {
      try {
        return await spawnBounded({ ...spec, env, argv, cwd, fds: descriptors(egressFds, c.held, c.filter), ...(o.track !== undefined ? { track: o.track } : {}) });
      } finally {
        await c.held?.release();
      }
    };
    if (c.sandbox !== 'bwrap' || egress === undefined) return { ok: true, sandbox: c.sandbox, run: (spec) => spawn(spec, spec.env) };
    return {
      ok: true,
      sandbox: c.sandbox,
      // Each program has a proxy of its own, for as long as it runs.
      run: async (spec) => {
        const started = await openEgress(egress, o.gate);
        if ('failure' in started) {
          await c.held?.release();
          return notStarted(started.failure.kind === 'failed' ? started.failure.diagnostics : []);
        }
        try {
          return await spawn(spec, egressEnv(spec.env, started.proxy.token), started.fds);
        } finally {
          await started.proxy.close();
        }
      },
    };
  };
}

/** The context a built-in runs with: the gate over the grant, the checked file layer, the sandbox. */
export function builtinContext(job: BuiltinJob, gate: RecordingGate, observer: BuiltinObserver, signal: AbortSignal, now: () => number): BuiltinContext {
  return {
    cwd: job.cwd,
    policy: gate,
    files: checkedFs(gate, job.cwd),
    limits: job.limits,
    env: job.env,
    signal,
    now,
    confine: confiner({
      mode: job.sandbox,
      allowUnsandboxed: job.allowUnsandboxed,
      pathEnv: job.pathEnv,
      writable: job.writable,
      granted: job.granted,
      protectedPaths: job.protectedPaths,
      secretPaths: job.secretPaths,
      ...(job.services !== undefined ? { services: job.services } : {}),
      gate,
      report: (sandbox, found) => observer.confined(sandbox, found),
      track: (pid, exited) => observer.process(pid, exited),
      ...(job.processPrefix !== undefined ? { processPrefix: job.processPrefix } : {}),
      ...(job.env.TZ !== undefined ? { timezone: job.env.TZ } : {}),
      // The programs a built-in starts park nothing past the run's memory either: without a
      // cgroup each rlimit is per process, and what they write to a tmpfs counts against none.
      tmpfsBytes: Math.floor(job.limits.memoryMiB * 1024 * 1024),
      // Without the run's cgroup, the programs' own memory and count are rlimits.
      ...(job.processPrefix === undefined ? { memoryBytes: Math.floor(job.limits.memoryMiB * 1024 * 1024) } : {}),
    }),
    async commit(work) {
      observer.committing(true);
      try {
        return await work();
      } finally {
        observer.committing(false);
      }
    },
    scratch: (path, kind) => observer.scratch(path, kind),
  };
}

/** The gate a built-in asks, over the job's grant (`distinct`: each answer kept once, GateOptions). */
export function builtinGate(job: Pick<BuiltinJob, 'cwd' | 'granted' | 'pathEnv' | 'writable' | 'protectedPaths' | 'secretPaths'>, onUse?: Parameters<typeof createPolicyGate>[1]['onUse'], lookupHost?: HostLookup, distinct = false): RecordingGate {
  return createPolicyGate(job.granted, {
    distinct,
    cwd: job.cwd,
    pathEnv: job.pathEnv,
    writable: job.writable,
    protectedPaths: job.protectedPaths,
    secretPaths: job.secretPaths,
    ...(onUse !== undefined ? { onUse } : {}),
    ...(lookupHost !== undefined ? { lookupHost } : {}),
  });
}

/** A refusal the skill made itself is recorded through the gate, so the audit record names it. */
export function recordSelfRefusal(gate: RecordingGate, outcome: BuiltinOutcome): void {
  if (outcome.status !== 'denied') return;
  const { code, scope } = outcome.decision;
  const reason = outcome.decision.recorded ?? outcome.decision.reason;
  const recorded = gate.uses.some((u) => !u.allowed && u.fallback === undefined && u.code === code && u.reason === reason);
  if (!recorded && scope !== undefined) gate.recordRefusal(scope, code, reason);
}

const none = { stdoutTruncated: false, stderrTruncated: false };

export function timedOut(limits: BuiltinLimits): Attempt {
  return { outcome: failed('timeout', [diag('RUN_TIMEOUT', `the skill ran past ${limits.timeoutMs} ms and was stopped`)]), ...none };
}

export function threw(message: string): Attempt {
  return { outcome: failed('failed', [diag('RUN_SKILL_FAILED', `the skill threw: ${message}`)]), ...none };
}

/** What the engine makes of a built-in's outcome: a JSON output within the bound, an error, or a failure. */
export function builtinAttempt(result: BuiltinOutcome, limits: BuiltinLimits): Attempt {
  switch (result.status) {
    case 'ok': {
      let text: string;
      try {
        text = canonicalize(result.output);
      } catch {
        return { outcome: failed('output_invalid', [diag('RUN_OUTPUT_NOT_JSON', 'the skill returned a value that is not JSON; it was discarded')]), ...none };
      }
      if (Buffer.byteLength(text) > limits.maxOutputBytes) {
        return { outcome: failed('output_limit', [diag('RUN_OUTPUT_LIMIT', `the output passed ${limits.maxOutputBytes} bytes; it was discarded`)]), stdoutTruncated: true, stderrTruncated: false };
      }
      return { outcome: { kind: 'output', value: JSON.parse(text) as unknown }, ...none };
    }
    case 'error':
      return { outcome: { kind: 'error', value: result.error }, ...none };
    case 'denied': {
      const d: PolicyDenial = result.decision;
      return { outcome: failed('denied', [diag(d.code, `${result.operation}: ${d.reason}`)]), ...none };
    }
    case 'unavailable':
      return { outcome: failed('unavailable', result.diagnostics), ...none };
    default: {
      const never: never = result;
      return never;
    }
  }
}

/**
 * Runs a built-in in this thread. Its time budget is enforced by aborting its signal and no
 * longer waiting for it: a skill that does not look at its signal keeps running until it returns.
 */
export async function runBuiltinInProcess(skill: BuiltinSkill, job: BuiltinJob, gate: RecordingGate, observer: BuiltinObserver, now: () => number, outer?: AbortSignal): Promise<Attempt> {
  const controller = new AbortController();
  const onOuter = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  const ctx = builtinContext(job, gate, observer, controller.signal, now);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve('timeout');
    }, job.limits.timeoutMs);
  });
  try {
    const result = await Promise.race([skill.run(structuredClone(job.input), ctx), timeout]);
    if (outer?.aborted === true) return interrupted();
    if (result === 'timeout' || controller.signal.aborted) return timedOut(job.limits);
    recordSelfRefusal(gate, result);
    return builtinAttempt(result, job.limits);
  } catch (err) {
    return threw(err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}
