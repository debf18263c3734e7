/**
 * Everything between the policy's decision and the first instruction of the skill: the variables
 * it requires, its environment (scrubbed to PATH, the granted names and the declared locale and
 * time zone), the paths no skill may write, and the runtime that will execute it (a built-in in a
 * worker thread or in this thread, a container, or a process under the run's sandbox).
 */
import { randomBytes } from 'node:crypto';
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize, sha256 } from '../digest/index.js';
import type { Entrypoint, Manifest } from '../manifest/index.js';
import { resolveReal, type Authorisation, type GateUse, type HostLookup } from '../policy/index.js';
import type { Attempt, RunStatus } from './attempt.js';
import { requiredEnv } from './select.js';
import { builtinGate, runBuiltinInProcess, type BuiltinJob, type BuiltinLookup, type BuiltinObserver } from './runtimes/builtin.js';
import { runBuiltinInWorker, type BuiltinWorkers } from './runtimes/builtin-worker.js';
import { runContainer } from './runtimes/container.js';
import type { HostNode } from './runtimes/interpreter.js';
import type { WasmSpare } from './runtimes/wasm.js';
import { prepareProcess, runProcess } from './runtimes/process.js';
import type { SandboxMode } from './sandbox.js';
import type { RunTrail } from './trail.js';
import { makeRunCgroup, type CgroupHost, type RunCgroup } from './cgroup.js';
import { heldBelowGrants, plantedBelow } from './nested-names.js';
import { serviceDirs, type HostServices } from './host-sockets.js';
import { absentPaths, linksOnTheWay, withoutPlanting, type HeldLink, type PlantedBelow } from './planted.js';
import { prepareWasmRun } from './wasm-run.js';

/** Built-ins by id in this thread (a library caller's own), or the shipped ones in worker threads. */
export type Builtins = BuiltinLookup | BuiltinWorkers;

export interface PrepareInput {
  readonly trail: RunTrail;
  readonly manifest: Manifest;
  readonly ep: Entrypoint;
  readonly bundleDir: string;
  readonly auth: Authorisation;
  readonly input: unknown;
  readonly cwd: string;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** The policy's PATH for runs (never the host's). */
  readonly runPath: string;
  /**
   * Real paths of the policy's fs.write (all of it, not only this grant): every program skillctl
   * looks up for the run (interpreter, exec commands, bwrap, setpriv, prlimit, a container
   * engine) is refused when its real path lies inside one (writable.ts).
   */
  readonly writable: readonly string[];
  readonly sandbox: SandboxMode;
  /** The policy's allow_unsandboxed. */
  readonly allowUnsandboxed: boolean;
  /** The policy's allow_container_network. */
  readonly allowContainerNetwork: boolean;
  readonly builtins: Builtins;
  readonly protectedPaths: readonly string[];
  /** RunOptions.secretPaths. */
  readonly secretPaths: readonly string[];
  /** RunOptions.repositoryPaths' answer, asked when the grant allows writing. */
  readonly repositoryPaths?: Promise<readonly string[]>;
  readonly hostNode?: HostNode;
  readonly lookupHost?: HostLookup;
  readonly monotonic: () => number;
  readonly signal?: AbortSignal;
  /** Where the host's cgroups are: a run gets one of its own where the host allows it. */
  readonly cgroups?: CgroupHost;
  /** The wasm runtime's instruction budget; default 10,000,000; null runs unmetered (for measuring metering). */
  readonly wasmFuel?: number | null;
  /** A wasm module's thread started early; taken only for exactly the run's limits. */
  readonly wasmSpare?: WasmSpare;
}

export type Prepared = { readonly execute: () => Promise<Attempt>; readonly release?: () => Promise<void> } | { readonly status: RunStatus };

/** The locale, time zone and encoding an entrypoint that declares none runs with (docs/formats/manifest.md). */
export const DEFAULT_CONTEXT = { locale: 'C.UTF-8', timezone: 'UTC', encoding: 'utf-8' } as const;

/**
 * The policy's PATH, the granted variables the entrypoint declares it reads, and its locale, time
 * zone and encoding (declared or the defaults). Hidden context must not change behaviour: a
 * variable granted but not in `required_environment_variables` stays out, and the host's PATH,
 * time zone or locale never leaks in.
 */
function scrubbedEnv(m: Manifest, ep: Entrypoint, granted: readonly string[], host: PrepareInput['hostEnv'], runPath: string): Record<string, string> {
  const env: Record<string, string> = {};
  const declared = new Set(ep.required_environment_variables ?? m.execution_context?.required_environment_variables ?? []);
  for (const name of granted) {
    const v = host[name];
    if (v !== undefined && declared.has(name)) env[name] = v;
  }
  // After the granted names: commands are checked against this PATH, so the skill gets this one.
  env.PATH = runPath;
  env.LC_ALL = ep.execution_context?.locale ?? m.execution_context?.locale ?? DEFAULT_CONTEXT.locale;
  env.TZ = ep.execution_context?.timezone ?? m.execution_context?.timezone ?? DEFAULT_CONTEXT.timezone;
  // Python reads and writes its standard streams in this encoding whatever the locale says.
  env.PYTHONIOENCODING = ep.execution_context?.encoding ?? m.execution_context?.encoding ?? DEFAULT_CONTEXT.encoding;
  return env;
}

function commandOf(ep: Entrypoint): string {
  return (typeof ep.command === 'string' ? ep.command : (ep.command[0] ?? '')).trim().replace(/^builtin:/, '');
}

function prepareBuiltin(
  p: PrepareInput,
  env: Record<string, string>,
  held: { readonly protectedPaths: readonly string[]; readonly secretPaths: readonly string[]; readonly services: HostServices; readonly links: ReadonlyMap<string, HeldLink> },
  cgroup: RunCgroup | undefined,
  below: PlantedBelow | undefined,
): Prepared {
  const { trail } = p;
  const { protectedPaths, secretPaths, services, links } = held;
  const skillId = commandOf(p.ep);
  const known = typeof p.builtins === 'function' ? undefined : p.builtins.has(skillId);
  if (known === false) {
    trail.add(diag('RUN_BUILTIN_UNKNOWN', `this skillctl has no builtin:${skillId}`, { pointer: '/command', hint: 'upgrade skillctl, or run a bundle with a process runtime' }));
    return { status: 'unavailable' };
  }
  trail.facts.observable = true;
  trail.facts.sandbox = 'in-process';
  // In a worker thread, the heap of that thread is capped; in this thread, nothing is. The
  // programs it starts share the run's cgroup, when there is one.
  trail.facts.caps = { memory: typeof p.builtins === 'function' ? 'none' : 'thread', processes: cgroup !== undefined ? 'run' : 'none' };
  const { limits } = p.auth;
  const job: BuiltinJob = {
    skillId,
    input: p.input,
    cwd: p.cwd,
    granted: p.auth.grant.granted,
    pathEnv: env.PATH ?? '',
    writable: p.writable,
    protectedPaths,
    secretPaths,
    services,
    limits: { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxOutputBytes, memoryMiB: limits.memoryMiB },
    env,
    sandbox: p.sandbox,
    allowUnsandboxed: p.allowUnsandboxed,
    ...(cgroup !== undefined ? { processPrefix: cgroup.prefix } : {}),
  };
  const uses: GateUse[] = [];
  trail.facts.uses = uses;
  // A program the skill starts (shell.exec_safe, git, rg) runs in the sandbox of process runtimes;
  // the record then names that sandbox.
  const observer: BuiltinObserver = {
    confined: (sandbox, found) => {
      trail.facts.sandbox = sandbox;
      for (const d of found) if (!trail.diagnostics.some((x) => x.code === d.code)) trail.add(d);
    },
    process: () => undefined,
    committing: () => undefined,
    scratch: () => undefined,
  };
  const builtins = p.builtins;
  const release = cgroup !== undefined ? () => cgroup.release() : undefined;
  // The built-in's own writes are judged by the gate; a program it starts (shell.exec_safe's
  // command) is held only by the sandbox's mounts, which cannot hold a path that does not exist
  // yet. With a program to run and somewhere to write, what it planted is removed, as for a process.
  const guarded = (run: () => Promise<Attempt>): (() => Promise<Attempt>) =>
    job.granted.exec.length > 0 && job.granted.fsWrite.length > 0 ? async () => withoutPlanting(await absentPaths(protectedPaths), run, below, links) : run;
  if (typeof builtins !== 'function') return { execute: guarded(() => runBuiltinInWorker(builtins, job, uses, observer, p.signal)), ...(release !== undefined ? { release } : {}) };
  return {
    ...(release !== undefined ? { release } : {}),
    execute: guarded(async () => {
      const impl = await builtins(skillId);
      if (impl === undefined) {
        return { outcome: { kind: 'failed', status: 'unavailable', diagnostics: [diag('RUN_BUILTIN_UNKNOWN', `this skillctl has no builtin:${skillId}`, { pointer: '/command', hint: 'upgrade skillctl, or run a bundle with a process runtime' })] }, stdoutTruncated: false, stderrTruncated: false };
      }
      const gate = builtinGate(job, (use) => uses.push(use), p.lookupHost);
      return runBuiltinInProcess(impl, job, gate, observer, p.monotonic, p.signal);
    }),
  };
}

/**
 * Each variable whose value the skill will see differs from its `value_fingerprints` entry (the
 * sha256 of the UTF-8 value: the manifest names the value it was written for without holding it).
 * A variable that will not reach the skill (not required, or not granted) differs too. An error
 * that stops the run when the entrypoint asks for strict determinism, else a warning: the run
 * then goes ahead in a context its manifest did not describe, and says so.
 */
export function fingerprintMismatches(m: Manifest, ep: Entrypoint, grantedEnv: readonly string[], hostEnv: PrepareInput['hostEnv']): Diagnostic[] {
  const expected = ep.value_fingerprints ?? m.execution_context?.value_fingerprints ?? {};
  const pointer = ep.value_fingerprints !== undefined ? undefined : '/execution_context/value_fingerprints';
  const seen = new Set(requiredEnv(m, ep).filter((n) => grantedEnv.includes(n)));
  const severity = ep.requested_determinism_profile === 'strict' ? 'error' : 'warning';
  const out: Diagnostic[] = [];
  for (const [name, want] of Object.entries(expected)) {
    const value = seen.has(name) ? hostEnv[name] : undefined;
    const why = !seen.has(name) ? 'does not reach the skill (not in required_environment_variables, or not granted)' : value === undefined ? 'is not set' : sha256(value) !== want ? 'has a value whose sha256 differs from its fingerprint' : undefined;
    if (why !== undefined) {
      out.push(
        diag('RUN_VALUE_FINGERPRINT_MISMATCH', `${name} ${why}`, {
          severity,
          ...(pointer !== undefined ? { pointer: `${pointer}/${name}` } : {}),
          hint: severity === 'error' ? 'set the value the manifest was written for, or drop strict determinism' : 'the run goes ahead in a context its manifest does not describe',
        }),
      );
    }
  }
  return out;
}

/** A variable the entrypoint requires (and the policy granted) that is not set: nothing runs. */
export function missingEnv(m: Manifest, ep: Entrypoint, hostEnv: PrepareInput['hostEnv']): Diagnostic[] {
  return requiredEnv(m, ep)
    .filter((n) => hostEnv[n] === undefined)
    .map((n) => diag('RUN_ENV_MISSING', `${n} is required and granted but not set`));
}

export async function prepareExecution(p: PrepareInput): Promise<Prepared> {
  const { trail, ep, auth } = p;
  const granted = auth.grant.granted;

  const env = scrubbedEnv(p.manifest, ep, granted.env, p.hostEnv, p.runPath);
  // A program (a process's, or one a built-in starts) is held by the sandbox's mounts alone, which
  // hold only the paths they are given: the protected names already below its grants are added.
  // Unconfined (`--sandbox none`), a program sees everything its user may: nothing is mounted. A
  // container's engine mounts what it is given whatever that option says.
  const unconfined = p.sandbox === 'none' && ep.runtime !== 'container';
  const walks = !(ep.runtime === 'wasm' || (ep.runtime === 'builtin' && granted.exec.length === 0) || unconfined);
  const walked = walks ? heldBelowGrants(granted, p.cwd) : { paths: [], sockets: [], diagnostics: [] };
  trail.add(...walked.diagnostics);
  const nested = walked.paths;
  if (nested === undefined) return { status: 'denied' };
  // What the program plants below its write grants where nothing was (a nested .claude/skills
  // folder, which Claude Code loads for the files there) is looked for once it ends.
  const heldBefore = new Set(nested);
  const below: PlantedBelow | undefined = walks && granted.fsWrite.length > 0 ? () => plantedBelow(heldBefore, granted.fsWrite, p.cwd) : undefined;
  const named = [...p.protectedPaths, ...((await p.repositoryPaths) ?? []), ...nested];
  const protectedPaths = await Promise.all(named.map((path) => resolveReal(path).catch(() => path)));
  // The links on the way to them, which no mount holds (planted.ts), for a program the sandbox holds.
  const links = walks ? await linksOnTheWay(named, granted.fsWrite) : new Map<string, HeldLink>();
  // By real path, as the gate judges every path: a secret named through a link is still the file.
  const secretPaths = await Promise.all(p.secretPaths.map((path) => resolveReal(path).catch(() => path)));
  // The host's services, whose sockets no grant shows (host-sockets.ts).
  const services: HostServices = { sockets: walked.sockets, dirs: serviceDirs(p.hostEnv.XDG_RUNTIME_DIR) };
  const limits = auth.limits;
  const stdin = Buffer.from(canonicalize(p.input));
  // A container's engine caps the container itself, and a wasm module starts no process (its memory
  // is capped by its own rewrite); every other run gets a cgroup where the host gives one.
  const cgroup = ep.runtime === 'container' || ep.runtime === 'wasm' ? undefined : await makeRunCgroup(p.cgroups, trail.facts.runId, limits.memoryMiB);
  switch (ep.runtime) {
    case 'wasm':
      return prepareWasmRun(p, { protectedPaths, secretPaths }, env, stdin);
    case 'builtin':
      return prepareBuiltin(p, env, { protectedPaths, secretPaths, services, links }, cgroup, below);
    case 'container': {
      // The egress proxy holds a process to its URL prefixes from outside its network namespace;
      // an image has no bridge to it, and the engine's network is every host and port (the
      // host's loopback services through the gateway, 169.254.169.254). A grant of one URL is
      // not a grant of those: refused unless the host policy accepts the engine's network.
      if (granted.netHttp.length > 0) {
        if (!p.allowContainerNetwork) {
          trail.add(
            diag('RUN_CONTAINER_NETWORK_UNCONFINED', `a container entrypoint granted net.http (${granted.netHttp.join(', ')}) would reach every host and port through the container engine's network, not only the granted URLs`, {
              hint: 'use a node, python or shell entrypoint (its requests go through the egress proxy), or accept the engine\'s network with allow_container_network: true in the host policy',
            }),
          );
          return { status: 'denied' };
        }
        trail.add(diag('RUN_CONTAINER_NETWORK_WIDE', `the container ran with the engine's network: every host and port, not only ${granted.netHttp.join(', ')} (allow_container_network)`));
      }
      trail.facts.sandbox = 'container';
      trail.facts.caps = { memory: 'run', processes: 'run' };
      const runId = randomBytes(6).toString('hex');
      const absent = await absentPaths(protectedPaths);
      const home = p.hostEnv.HOME !== undefined && p.hostEnv.HOME !== '' ? { home: p.hostEnv.HOME } : {};
      return { execute: () => withoutPlanting(absent, () => runContainer({ ep, bundleDir: p.bundleDir, granted, limits, env, ...home, writable: p.writable, runId, protectedPaths, secretPaths, services }, stdin, p.signal), below, links) };
    }
    default: {
      // A process starts in its bundle: SKILLCTL_CWD names the run's working directory, where the
      // caller's relative request paths point. It grants nothing: the process reaches that
      // directory only as far as the policy grants it. Set after the granted names, so a policy
      // granting an env name SKILLCTL_CWD cannot pass the host's value instead.
      const processEnv = { ...env, SKILLCTL_CWD: p.cwd };
      const uses: GateUse[] = [];
      // The egress proxy asks this gate for each of the process's requests, however many: each answer is kept once.
      const gate = builtinGate({ cwd: p.cwd, granted, pathEnv: env.PATH ?? '', writable: p.writable, protectedPaths, secretPaths }, (use) => uses.push(use), p.lookupHost, true);
      const options = { ep, bundleDir: p.bundleDir, grant: auth.grant, gate, limits, env: processEnv, writable: p.writable, sandbox: p.sandbox, allowUnsandboxed: p.allowUnsandboxed, protectedPaths, secretPaths, services, ...(p.hostNode !== undefined ? { hostNode: p.hostNode } : {}), ...(cgroup !== undefined ? { cgroup } : {}), ...(p.hostEnv.HOME !== undefined ? { home: p.hostEnv.HOME } : {}) };
      const prep = await prepareProcess(options);
      trail.add(...prep.diagnostics);
      // A process runtime's own checks (a command from PATH) are recorded like a built-in's.
      trail.facts.uses = uses;
      if ('failure' in prep) {
        await cgroup?.release();
        const failure = prep.failure as Extract<Attempt['outcome'], { kind: 'failed' }>;
        trail.add(...failure.diagnostics);
        return { status: failure.status };
      }
      trail.facts.sandbox = prep.prepared.sandbox;
      trail.facts.caps = prep.prepared.caps;
      if (prep.prepared.runtime.version !== undefined) trail.facts.runtimeVersion = prep.prepared.runtime.version;
      const absent = await absentPaths(protectedPaths);
      const held = prep.prepared.held;
      const release = held === undefined ? cgroup?.release.bind(cgroup) : async () => void (await Promise.all([held.release(), cgroup?.release()]));
      return { execute: () => withoutPlanting(absent, () => runProcess(prep.prepared, options, stdin, p.signal), below, links), ...(release !== undefined ? { release } : {}) };
    }
  }
}
