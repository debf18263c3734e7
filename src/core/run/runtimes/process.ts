/**
 * The node, python and shell runtimes: one process, argv only (never a shell command line),
 * started in the bundle with the input on stdin, a scrubbed environment, rlimits through
 * prlimit, and bubblewrap isolation when available. The output is what it prints on stdout.
 */
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { commandArgv, type Entrypoint } from '../../manifest/model.js';
// The policy's modules, not policy/index.js, which holds the policy file loader (YAML).
import { lookupCommand } from '../../fs/find-command.js';
import type { Grant } from '../../policy/grant.js';
import type { RecordingGate } from '../../policy/gate.js';
import { within } from '../../policy/paths.js';
import { failed, interpretProcess, memoryLimited, type Attempt } from '../attempt.js';
import type { CapScope } from '../audit.js';
import type { RunCgroup } from '../cgroup.js';
import { limitArgs } from '../program-limits.js';
import { sandboxPath } from '../bwrap-args.js';
import { bwrapComplaint, programDirs, sandboxPrefix, type SandboxMode } from '../sandbox.js';
import { secretFilesIn } from '../secret-files.js';
import type { HostServices } from '../host-sockets.js';
import { spawnBounded, type SpawnSpec } from '../process-runner.js';
import { descriptors, type PinnedGrants } from '../grant-pins.js';
import { egressEnv } from '../egress/bridge.js';
import { openEgress, planEgress, type EgressPlan } from '../egress/open.js';
import { programWritable } from '../writable.js';
import { findInterpreter, nodePermissionFlag, nodeReadsProxyEnv, versionCheck, type HostNode, type Interpreter } from './interpreter.js';
import { interpreterShown } from './interpreter-shown.js';
import { bundleModulesOnly } from './node-module-search.js';
import { pushAll } from '../../findings.js';

export interface ProcessRuntimeOptions {
  readonly ep: Entrypoint;
  /** Real path of the bundle directory. */
  readonly bundleDir: string;
  readonly grant: Grant;
  readonly gate: RecordingGate;
  readonly limits: { readonly timeoutMs: number; readonly memoryMiB: number; readonly maxOutputBytes: number };
  /** The scrubbed environment the process gets (PATH plus granted names). */
  readonly env: Readonly<Record<string, string>>;
  /** Real paths of the policy's fs.write: the interpreter, prlimit and the sandbox's tools are refused inside one. */
  readonly writable: readonly string[];
  readonly sandbox: SandboxMode;
  /** The policy's allow_unsandboxed (see SandboxRequest). */
  readonly allowUnsandboxed: boolean;
  readonly hostNode?: HostNode;
  /** Real paths the skill may never write (see GateOptions.protectedPaths). */
  readonly protectedPaths?: readonly string[];
  /** Real paths of files the skill may never read (RunOptions.secretPaths): an empty file in the sandbox. */
  readonly secretPaths?: readonly string[];
  /** The host's services whose sockets the sandbox covers (host-sockets.ts). Default: none. */
  readonly services?: HostServices;
  /** The run's cgroup, when the host gives one: max_memory and the process count hold for the whole run. */
  readonly cgroup?: RunCgroup;
  /** The user's home ($HOME): an interpreter installed in it is shown without the rest of it (interpreterShown). */
  readonly home?: string;
}

export interface PreparedProcess {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly sandbox: 'bwrap' | 'none';
  readonly runtime: { readonly name: string; readonly path: string; readonly version?: string };
  /** Where max_memory and the process count hold. */
  readonly caps: { readonly memory: CapScope; readonly processes: CapScope };
  /** Where the egress proxy listens, and whether it reads HTTPS, when the sandbox reaches the network through it. */
  readonly egress?: EgressPlan;
  /** The grants' descriptors the sandbox mounts (grant-pins.ts), held until the run ends (release them then). */
  readonly held?: PinnedGrants;
  /** The seccomp filter bubblewrap installs (seccomp.ts), handed to it on SECCOMP_FD. */
  readonly filter?: Uint8Array;
  /** `bwrap <args> --` alone, without the command: whether bubblewrap can set this sandbox up (sandboxSetsUp). */
  readonly bwrap?: readonly string[];
}

export type Preparation = { readonly prepared: PreparedProcess; readonly diagnostics: Diagnostic[] } | { readonly failure: Attempt['outcome']; readonly diagnostics: Diagnostic[] };

const MIB = 1024 * 1024;
/** No file can be created below a character device, whoever asks: python's pycache_prefix for runs. */
const NO_PYCACHE = '/dev/null/skillctl';

/**
 * The paths not inside another one of the list, each once. Node 20 aborts on a path given twice
 * to --allow-fs-read, and a nested one adds nothing.
 */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && within(p, q)));
}

async function bundleFile(bundleDir: string, cwd: string, rel: string): Promise<string | undefined> {
  try {
    const real = await realpath(join(cwd, rel));
    return within(real, bundleDir) && (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** An argument, or the value of a `--flag=PATH`, that names a path in the bundle, as the sandbox shows it. */
function inBundleMount(arg: string, bundle: string): string {
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return eq > 0 ? arg.slice(0, eq + 1) + sandboxPath(arg.slice(eq + 1), bundle) : sandboxPath(arg, bundle);
}

function unavailable(message: string, diagnostics: Diagnostic[]): Preparation {
  return { failure: failed('unavailable', [diag('RUN_RUNTIME_UNAVAILABLE', message, { pointer: '/command' })]), diagnostics };
}

async function interpreterFor(o: ProcessRuntimeOptions, name: string, diagnostics: Diagnostic[]): Promise<Interpreter | Preparation> {
  const found = await findInterpreter(name, o.env, o.hostNode, o.writable);
  if (found.interpreter === undefined) return { failure: failed('unavailable', found.diagnostics), diagnostics };
  pushAll(diagnostics, versionCheck(found.interpreter, o.ep.runtime_version));
  return found.interpreter;
}

/** Works out the command line: interpreter, its flags, the script in the bundle, the arguments. */
export async function prepareProcess(o: ProcessRuntimeOptions): Promise<Preparation> {
  const diagnostics: Diagnostic[] = [];
  const argv = commandArgv(o.ep.command);
  let cwd: string;
  try {
    cwd = await realpath(join(o.bundleDir, o.ep.working_directory));
  } catch {
    return unavailable(`working_directory ${o.ep.working_directory} does not exist in the bundle`, diagnostics);
  }
  if (!within(cwd, o.bundleDir)) return unavailable('working_directory leaves the bundle', diagnostics);
  const runtimeDirs: string[] = [];
  let command: string[];
  let runtime: PreparedProcess['runtime'];
  let nodeBaseline: number | undefined;
  const { fsRead, fsWrite } = o.grant.granted;

  if (o.ep.runtime === 'node' || o.ep.runtime === 'python') {
    const names = o.ep.runtime === 'node' ? ['node'] : ['python3', 'python'];
    const explicit = names.includes(argv[0] as string);
    const [script, ...rest] = explicit ? argv.slice(1) : argv;
    const interp = await interpreterFor(o, explicit ? (argv[0] as string) : (names[0] as string), diagnostics);
    if ('diagnostics' in interp) return interp;
    const file = script === undefined ? undefined : await bundleFile(o.bundleDir, cwd, script);
    if (file === undefined) return unavailable(`the script ${JSON.stringify(script ?? '')} is not a file in the bundle`, diagnostics);
    const shown = await interpreterShown(interp, o.home, o.env.SKILLCTL_CWD);
    pushAll(runtimeDirs, shown.mounts);
    runtime = { name: o.ep.runtime, path: interp.path, ...(interp.version !== undefined ? { version: interp.version } : {}) };
    if (o.ep.runtime === 'node') {
      nodeBaseline = interp.baselineDataKiB;
      // --no-global-search-paths: no module from $HOME/.node_modules, $HOME/.node_libraries or
      // NODE_PATH, where a skill granted the home plants one that the next node skill's require finds.
      const flags = [`--max-old-space-size=${Math.max(16, Math.floor(o.limits.memoryMiB))}`, '--no-global-search-paths'];
      // Node's permission model: the file system beyond the bundle and the grant, child
      // processes and workers are refused inside node itself, with or without bubblewrap.
      const perm = nodePermissionFlag(interp.version);
      if (perm !== undefined) {
        flags.push(perm, '--disable-warning=ExperimentalWarning');
        // The bundle on its own, even inside a read grant: under bubblewrap it is also at /skill.
        flags.push(`--allow-fs-read=${o.bundleDir}`);
        for (const p of outermost([...fsRead, ...fsWrite])) flags.push(`--allow-fs-read=${p}`);
        for (const p of outermost(fsWrite)) flags.push(`--allow-fs-write=${p}`);
        if (o.grant.granted.exec.length > 0) flags.push('--allow-child-process');
      }
      command = [shown.program, ...flags, file, ...rest];
    } else {
      // -B: no __pycache__ written into the bundle (that would change its content digest). -s: no
      // user site-packages: its *.pth files run at every python start, and usercustomize with
      // them, so a skill granted the home would plant code that every later python skill runs.
      // -X pycache_prefix: compiled modules are looked for under a folder that cannot exist (a
      // path below a device), never in a __pycache__ beside the sources. A timestamp .pyc there
      // runs in its source's place whenever it records the source's second and size, and the
      // run's copy of the source is as new as the copy: a .pyc for each of the next seconds won.
      // --check-hash-based-pycs always stays for pythons before 3.8, which ignore the prefix: a
      // hash-based .pyc then runs only when it is its source compiled.
      command = [shown.program, '-B', '-s', '-X', `pycache_prefix=${NO_PYCACHE}`, '--check-hash-based-pycs', 'always', file, ...rest];
    }
  } else {
    const [program, ...rest] = argv as [string, ...string[]];
    if (program.includes('/')) {
      const file = await bundleFile(o.bundleDir, cwd, program);
      if (file === undefined) return unavailable(`the command ${JSON.stringify(program)} is not a file in the bundle`, diagnostics);
      command = [file, ...rest];
      runtime = { name: 'shell', path: file };
    } else {
      // A program from PATH is an exec the policy must allow, with these very arguments.
      const decision = await o.gate.checkExec(argv);
      if (!decision.allowed) {
        return { failure: failed('denied', [diag(decision.code, decision.reason, { pointer: '/command' })]), diagnostics };
      }
      pushAll(runtimeDirs, await programDirs(decision.resolved));
      command = [decision.resolved, ...rest];
      runtime = { name: 'shell', path: decision.resolved };
    }
  }

  const prlimit = await lookupCommand('prlimit', o.env.PATH ?? '', { writable: o.writable });
  const planted = programWritable('prlimit', prlimit);
  if (planted !== undefined) return { failure: failed('unavailable', [planted]), diagnostics };
  if (prlimit.ok) pushAll(runtimeDirs, await programDirs(prlimit.path));
  const egress = planEgress(o.grant.granted.netHttp);
  const confined = await sandboxPrefix({
    mode: o.sandbox,
    allowUnsandboxed: o.allowUnsandboxed,
    pathEnv: o.env.PATH ?? '',
    writable: o.writable,
    bundle: o.bundleDir,
    cwd,
    runtimeDirs,
    read: fsRead,
    write: fsWrite,
    ...(egress !== undefined ? { egress: { readsHttps: egress.readsHttps, socket: egress.socket } } : {}),
    protect: o.protectedPaths ?? [],
    hideFiles: await secretFilesIn(o.secretPaths ?? [], [...fsRead, ...fsWrite]),
    ...(o.services !== undefined ? { services: o.services } : {}),
    ...(o.env.TZ !== undefined ? { timezone: o.env.TZ } : {}),
    tmpfsBytes: Math.floor(o.limits.memoryMiB * MIB),
  });
  if ('refused' in confined) return { failure: failed('unavailable', [confined.refused]), diagnostics };
  pushAll(diagnostics, confined.diagnostics);
  const sandbox = confined.sandbox;
  // Inside bubblewrap the bundle is at BUNDLE_MOUNT: the script and the flags that name the
  // bundle point there (arguments and flags hold no other path to it).
  if (sandbox === 'bwrap') command = command.map((arg) => inBundleMount(arg, o.bundleDir));
  // Without it, node searches the node_modules above the bundle for a bare module name (node-module-search.ts).
  else if (o.ep.runtime === 'node' && nodePermissionFlag(runtime.version) !== undefined) command.splice(1, 0, bundleModulesOnly(o.bundleDir));

  let memory: CapScope = 'none';
  let processes: CapScope = o.cgroup !== undefined ? 'run' : 'none';
  if (prlimit.ok) {
    const bytes = Math.floor(o.limits.memoryMiB * MIB);
    // V8 reserves far more address space than it uses, so node gets a data-segment limit above
    // its own baseline (what it allocates counts; the heap is also capped by the flag above);
    // python and shell programs an address-space limit.
    const node = o.ep.runtime === 'node' ? { baselineKiB: nodeBaseline } : undefined;
    if (node !== undefined && nodeBaseline === undefined) diagnostics.push(diag('RUN_MEMORY_UNCAPPED', "node's baseline data segment could not be measured; only its heap is capped"));
    else memory = 'process';
    // Without the run's cgroup, the process count: in a sandbox that counts its own processes
    // (user-namespace.ts), as many tasks as the cgroup would allow.
    const countsOwn = o.cgroup === undefined && confined.countsOwnProcesses === true;
    if (countsOwn) processes = 'run';
    // Inside the sandbox, after the bridge (which the limits would not let start): they hold
    // for the command and what it starts.
    command = [prlimit.path, ...limitArgs(bytes, countsOwn, node), '--', ...command];
  } else {
    diagnostics.push(diag('RUN_MEMORY_UNCAPPED', `prlimit is ${prlimit.reason}; max_memory is not enforced for this ${o.ep.runtime} process`, { hint: 'install util-linux' }));
  }
  command = [...confined.prefix, ...command];
  if (o.cgroup !== undefined) {
    // Outermost: the process joins the run's cgroup before anything of the skill (or the sandbox) starts.
    command = [...o.cgroup.prefix, ...command];
    memory = 'run';
  }
  // bubblewrap's own part of the prefix ends at its first `--` (no path it is given is `--`).
  const bwrapOnly = sandbox === 'bwrap' ? { bwrap: confined.prefix.slice(0, confined.prefix.indexOf('--') + 1) } : {};
  const proxied = sandbox === 'bwrap' && egress !== undefined ? { egress } : {};
  if ('egress' in proxied && o.ep.runtime === 'node' && !nodeReadsProxyEnv(runtime.version)) {
    diagnostics.push(diag('RUN_NODE_FETCH_UNPROXIED', `node ${runtime.version ?? '(version unknown)'} does not send fetch or http requests through HTTP_PROXY: the skill reaches the network only if it uses the proxy itself`, { hint: 'run skillctl on node 22.21 or 24 and later' }));
  }
  return { prepared: { argv: command, cwd, sandbox, runtime, caps: { memory, processes }, ...proxied, ...(confined.held !== undefined ? { held: confined.held } : {}), ...(confined.filter !== undefined ? { filter: confined.filter } : {}), ...bwrapOnly }, diagnostics };
}

export async function runProcess(p: PreparedProcess, o: ProcessRuntimeOptions, input: Uint8Array, signal?: AbortSignal): Promise<Attempt> {
  if (p.egress === undefined) return spawnProcess(p, o, o.env, descriptors([], p.held, p.filter), input, signal);
  const started = await openEgress(p.egress, o.gate);
  if ('failure' in started) return { outcome: started.failure, stdoutTruncated: false, stderrTruncated: false };
  try {
    return await spawnProcess(p, o, egressEnv(o.env, started.proxy.token), descriptors(started.fds, p.held, p.filter), input, signal);
  } finally {
    await started.proxy.close();
  }
}

async function spawnProcess(p: PreparedProcess, o: ProcessRuntimeOptions, env: Readonly<Record<string, string>>, fds: SpawnSpec['fds'], input: Uint8Array, signal?: AbortSignal): Promise<Attempt> {
  const r = await spawnBounded({
    argv: p.argv,
    cwd: p.cwd,
    env,
    fds,
    stdin: input,
    timeoutMs: o.limits.timeoutMs,
    maxStdout: o.limits.maxOutputBytes,
    maxStderr: o.limits.maxOutputBytes,
    stopAtLimit: true,
    ...(signal !== undefined ? { signal } : {}),
  });
  // The cgroup's memory cap killed one of the run's processes: the run passed max_memory, whatever
  // the process that printed the output says (a child killed in the background counts too).
  if (!r.aborted && !r.timedOut && o.cgroup !== undefined && (await o.cgroup.oomKilled())) return memoryLimited(r, o.limits);
  const complained = p.bwrap !== undefined && !r.aborted && !r.timedOut && bwrapComplaint(r.exitCode, r.stdout, r.stderrTail) !== undefined;
  return interpretProcess(r, o.limits, complained && !(await sandboxSetsUp(p.bwrap ?? [], p.cwd, env, fds)));
}

/**
 * Whether bubblewrap sets this very sandbox up (the same mounts, descriptors and filter) and starts
 * an empty command in it: asked only when a run's stderr holds what reads as bubblewrap's own
 * complaint, which the skill can print as well as bubblewrap.
 */
async function sandboxSetsUp(bwrap: readonly string[], cwd: string, env: Readonly<Record<string, string>>, fds: SpawnSpec['fds']): Promise<boolean> {
  const r = await spawnBounded({ argv: [...bwrap, '/bin/sh', '-c', ':'], cwd, env, ...(fds !== undefined ? { fds } : {}), timeoutMs: 10_000, maxStdout: 4096, maxStderr: 4096 });
  return r.spawnError === undefined && r.exitCode === 0;
}
