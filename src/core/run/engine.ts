/**
 * `skillctl run` as a library call, in fixed steps, each of which may end the run: resolve the
 * target to a bundle and an entrypoint, read the input, authorise (the policy's one decision:
 * nothing of the skill runs unless every required permission is granted), prepare (input schema,
 * environment, runtime), execute (again, up to `retries`, while the output violates its
 * contract), and record. Returns the result with its sealed audit record; with an audit sink, the
 * record is appended there. Nothing here prints or exits.
 */
import { tmpdir } from 'node:os';
import { diag, type Diagnostic } from '../diagnostics.js';
import { lookupCommand } from '../fs/find-command.js';
import { entrypointMutates, resolveLimits } from '../manifest/index.js';
import { authorise, type HostLookup, type HostPolicy } from '../policy/index.js';
import { defaultSchemaCompiler, type SchemaCompiler } from './contract.js';
import { withDenialHints } from './denial-hints.js';
import { executeAttempts } from './execute.js';
import { checkInput, readInput } from './input.js';
import { fingerprintMismatches, missingEnv, prepareExecution, type Builtins } from './prepare.js';
import { resolveSkill, type ResolvedSkill, type ResolveOptions } from './resolve.js';
import { ensureScratchRoot, scratchRoot } from './scratch-root.js';
import type { CgroupHost } from './cgroup.js';
import type { HostNode } from './runtimes/interpreter.js';
import type { WasmSpare } from './runtimes/wasm.js';
import type { SandboxMode } from './sandbox.js';
import { requiredEnv, selectEntrypoint } from './select.js';
import { RunTrail, type AuditSink, type Clock, type RunResult } from './trail.js';
import { pathOutsideWrites, programWritable, scratchWritable, writableReal } from './writable.js';

export type { AuditSink, Clock, RunResult };

export interface RunRequest {
  /** A skill id (`fs.read_text`, `fs.read_text@0.1.0`) or a bundle directory (`./my-skill`). */
  readonly target: string;
  /** Default: the only entrypoint, else the one called `main`. */
  readonly entrypoint?: string;
  /** The input document (JSON bytes); default `{}`. */
  readonly input?: Uint8Array;
  /** Extra attempts after an output that violates the contract; 0 to 3, default 0. */
  readonly retries?: number;
  /** Default `auto`: bubblewrap when installed. */
  readonly sandbox?: SandboxMode;
  /**
   * The caller offers this run as a read that nobody approves (an MCP `read` tool): an entrypoint
   * that can write is refused before anything runs. The tool's kind was judged against the skill
   * pinned when its capability was published; the run resolves the skill pinned now.
   */
  readonly readOnly?: boolean;
  /**
   * The caller runs this on an approval given earlier (`mcp --approve`, at the server's start):
   * the digests the project's lock pinned for the skill id then (none: a built-in ran). The
   * skill resolved now must be one of them, manifest and content, or that built-in: a re-pin
   * since (also of other files under a manifest without content_digest, which covers none), or a
   * project skill pinned under a built-in's id, is not what was approved, and is not run.
   */
  readonly approvedPins?: readonly ApprovedPin[];
  /** The target is a tool binding's skill id: never read as a path (ResolveOptions.skillIdOnly). */
  readonly skillIdOnly?: boolean;
}

/** The policy in force: a loaded policy, or a policy file that failed to load (nothing runs). */
export type PolicyInForce = HostPolicy | { readonly invalid: readonly Diagnostic[]; readonly source: string };

export interface RunOptions {
  /** The run's working directory: built-ins work in it, relative permissions resolve against it. */
  readonly cwd: string;
  /** The host environment: only PATH and granted names reach a skill. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly policy: PolicyInForce;
  readonly clock: Clock;
  /**
   * Implementations of `builtin:<skill_id>` commands: a lookup of skills run in this thread, or
   * the worker threads the shipped ones run in (where the deadline and max_memory stop them).
   */
  readonly builtins: Builtins;
  /** Where skill ids are looked up (project root, package root, pin lookup). */
  readonly resolve?: Omit<ResolveOptions, 'cwd'>;
  /**
   * Compiles the entrypoint's input, output and error schemas; default: build-time validators
   * for the default bundle, else ajv. Plug payload contracts in here (schemas that `$ref` them).
   */
  readonly compileSchema?: SchemaCompiler;
  readonly hostNode?: HostNode;
  /** DNS for URL checks of built-ins run in this thread; default: the system resolver. */
  readonly lookupHost?: HostLookup;
  readonly skillctlVersion: string;
  /**
   * Aborted when the run must stop (SIGINT, SIGTERM): the skill is stopped, the run recorded as
   * interrupted. Its reason `SIGTERM` makes the exit status 143, anything else 130.
   */
  readonly signal?: AbortSignal;
  /**
   * Paths no skill may write even inside a write grant, besides the names protected everywhere:
   * pass the policy file and its directory, the lock file and the audit log, so a skill cannot
   * widen its own grant or rewrite the record of what it did.
   */
  readonly protectedPaths?: readonly string[];
  /**
   * Files no skill may read, write or list, whatever its grant: the secrets of the command
   * starting the runs (`skillctl mcp --http-token-file`: with the server's bearer token, whoever
   * reads it opens sessions of their own). Refused to built-ins and WebAssembly modules
   * (POLICY_PATH_SECRET); a program under bubblewrap or in a container finds an empty file there.
   * Default: none.
   */
  readonly secretPaths?: readonly string[];
  /**
   * More paths no skill may write, asked only when the grant allows writing: what the repository's
   * git configuration names for the user's git to run (its hooks folder, filter scripts, included
   * configuration). The CLI asks `git`, the absolute path the engine found on the caller's PATH
   * and judged (see src/cli/git-named-paths.ts). Never rejects.
   */
  readonly repositoryPaths?: (git: string) => Promise<readonly string[]>;
  /** Where the run's records go as it makes them; without one the record is only returned. */
  readonly audit?: AuditSink;
  /**
   * Where the host's cgroups are (the CLI reads /proc/self/cgroup): a run gets a cgroup of its
   * own for max_memory and a process count where the host allows it. Without it, caps are per process.
   */
  readonly cgroups?: CgroupHost;
  /** The wasm runtime's instruction budget (default 10,000,000); null runs modules unmetered, to measure what metering costs. */
  readonly wasmFuel?: number | null;
  /** A wasm module's thread started early (runtimes/wasm.ts): a run takes it only for exactly its limits. */
  readonly wasmSpare?: WasmSpare;
}

/** A skill an approval was given for: the digests its pin held then. */
export interface ApprovedPin {
  readonly manifest_digest: string;
  readonly content_digest: string;
}

/** Why the resolved skill is not the one an approval was given for (RunRequest.approvedPins), or undefined. */
function approvalStale(skill: ResolvedSkill, now: { readonly manifest_digest?: string; readonly content_digest?: string } | undefined, approved: readonly ApprovedPin[]): string | undefined {
  const id = `${skill.manifest.skill_id} ${skill.manifest.skill_version}`;
  if (skill.origin === 'default') return approved.length === 0 ? undefined : `${id} is the built-in now, but the lock pinned it when the approval was given; it is not run`;
  if (skill.origin === 'lock' && approved.some((p) => p.manifest_digest === now?.manifest_digest && p.content_digest === now?.content_digest)) return undefined;
  const then = approved.length === 0 ? 'the built-in ran when the approval was given' : `the approval was given for ${approved.map((p) => `${p.manifest_digest} (content ${p.content_digest})`).join(', ')}`;
  return `${id} resolves to ${now?.manifest_digest ?? 'an unknown manifest'} (content ${now?.content_digest ?? 'unknown'}, ${skill.origin}), but ${then}: a re-pin since is not approved, and it is not run`;
}

export async function runSkill(req: RunRequest, opts: RunOptions): Promise<RunResult> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await runSteps(req, opts, cleanups);
  } finally {
    // An unpacked archive goes whatever happened; failing to remove it does not change the run's result.
    for (const c of cleanups) await c().catch(() => undefined);
  }
}

async function runSteps(req: RunRequest, opts: RunOptions, cleanups: (() => Promise<void>)[]): Promise<RunResult> {
  const policy = 'invalid' in opts.policy ? undefined : opts.policy;
  const trail = new RunTrail(req.target, { source: opts.policy.source, ...(policy !== undefined ? { digest: policy.digest } : {}) }, opts.clock, opts.skillctlVersion, opts.audit, opts.signal);

  // 1. Resolve: the bundle the target names, and the entrypoint.
  // A bundle directory runs from a private copy, verified as copied (stage.ts), where no skill may write (writable.ts).
  const writable = policy !== undefined && policy.fsWrite.length > 0 ? await writableReal(policy.fsWrite) : [];
  // In skillctl's own directory there (scratch-root.ts), made now whatever the target, with /tmp's
  // (where a socket goes whose path would be too long): this run's sandbox starts with both there,
  // to be protected, and neither can be taken for a path the skill planted (planted.ts).
  const scratchDir = scratchRoot(opts.resolve?.scratchDir ?? tmpdir());
  const unsafe = await ensureScratchRoot(scratchDir);
  const tmpRoot = scratchRoot('/tmp');
  await ensureScratchRoot(tmpRoot);
  const scratchRefusal = (await scratchWritable(scratchDir, writable)) ?? unsafe;
  const resolution = await resolveSkill(req.target, { cwd: opts.cwd, ...opts.resolve, scratchDir, stage: true, ...(scratchRefusal !== undefined ? { scratchRefusal } : {}), ...(req.skillIdOnly === true ? { skillIdOnly: true } : {}) });
  if (resolution.cleanup !== undefined) cleanups.push(resolution.cleanup);
  trail.add(...resolution.diagnostics);
  Object.assign(trail.facts, {
    skillId: resolution.identity?.skill_id,
    skillVersion: resolution.identity?.skill_version,
    manifestDigest: resolution.identity?.manifest_digest,
    contentDigest: resolution.identity?.content_digest,
    loaderError: resolution.loaderError,
  });
  const skill = resolution.skill;
  if (skill === undefined) {
    if (scratchRefusal !== undefined && resolution.diagnostics.includes(scratchRefusal)) return trail.end('unavailable');
    const invalid = resolution.diagnostics.some((d) => d.code === 'RUN_BUNDLE_INVALID' || d.code === 'RUN_PIN_MISMATCH');
    return trail.end(invalid ? 'bundle_invalid' : 'not_found');
  }
  trail.facts.origin = skill.origin;
  const ep = selectEntrypoint(skill.manifest, req.entrypoint);
  if (!('entrypoint_id' in ep)) {
    trail.add(ep);
    return trail.end('not_found');
  }
  trail.locate(skill.file, `/entrypoints/${skill.manifest.entrypoints.indexOf(ep)}`);
  Object.assign(trail.facts, { entrypointId: ep.entrypoint_id, runtime: ep.runtime });
  const mutates = req.readOnly === true ? entrypointMutates(ep) : undefined;
  if (mutates !== undefined) {
    trail.add(
      diag('TOOL_KIND_UNDERSTATED', `${skill.manifest.skill_id} ${skill.manifest.skill_version} entrypoint ${ep.entrypoint_id} has ${mutates}, but it was called as a read, which no approval gates; it is not run`, {
        hint: 'republish the capability with the tool declared "kind": "write", "requires_approval": true, or pin the skill it was published against',
      }),
    );
    return trail.end('denied');
  }
  const stale = req.approvedPins !== undefined ? approvalStale(skill, resolution.identity, req.approvedPins) : undefined;
  if (stale !== undefined) {
    trail.add(diag('TOOL_APPROVAL_REQUIRED', stale, { hint: 'restart the server to approve the skill the lock pins now (after reviewing it)' }));
    return trail.end('denied');
  }
  if (policy === undefined) {
    trail.add(...(opts.policy as { invalid: readonly Diagnostic[] }).invalid);
    return trail.end('policy_invalid');
  }

  // 2. The input: any JSON value (its schema is checked once the schemas are compiled).
  const input = await readInput(req.input);
  if ('diagnostics' in input) {
    trail.add(...input.diagnostics);
    return trail.end('input_invalid');
  }
  trail.facts.inputDigest = input.digest;
  trail.fingerprint({ args: ep.args_fingerprint_fields, result: ep.result_fingerprint_fields, side_effects: ep.side_effect_fingerprint_fields }, input.value);

  // 3. Authorise: the policy's decision comes before anything of the skill runs. Commands are
  // found on the policy's PATH without the directories skills may write (writable.ts).
  const runPath = await pathOutsideWrites(policy.runPath, writable);
  trail.add(...runPath.diagnostics);
  const auth = await authorise(
    { requested: ep.requested_permissions, required: ep.required_permissions, requiredEnv: requiredEnv(skill.manifest, ep), limits: resolveLimits(ep.runtime_limits) },
    policy,
    { cwd: opts.cwd, pathEnv: runPath.path },
  );
  trail.facts.grant = auth.grant;
  trail.add(...auth.diagnostics);
  if (!auth.allowed) return trail.end('denied');
  // Asked now, so the git it starts runs while the schemas compile. That git is the user's, found
  // on the PATH skillctl was started with (not the policy's), and started outside every sandbox
  // before each run that may write: one inside a write grant (an activated `.venv/bin`, a
  // project's `tools/` on PATH) is what an earlier skill planted there, and is refused.
  let repositoryPaths: Promise<readonly string[]> | undefined;
  if (auth.grant.granted.fsWrite.length > 0 && opts.repositoryPaths !== undefined) {
    // Without PATH, where execvp would have looked (glibc's default), so the listing still runs.
    const git = await lookupCommand('git', opts.env.PATH ?? '/bin:/usr/bin', { writable });
    const planted = programWritable('git (asked what the repository configuration names)', git);
    if (planted !== undefined) {
      trail.add(planted);
      return trail.end('unavailable');
    }
    repositoryPaths = git.ok ? opts.repositoryPaths(git.path) : Promise.resolve([]);
  }

  // 4. Prepare: the variables it requires, the input against input_schema (the other schemas
  // compile while the skill runs), the environment, the runtime.
  const unset = missingEnv(skill.manifest, ep, opts.env);
  if (unset.length > 0) {
    trail.add(...unset);
    return trail.end('unavailable');
  }
  const drift = fingerprintMismatches(skill.manifest, ep, auth.grant.granted.env, opts.env);
  trail.add(...drift);
  if (drift.some((d) => d.severity === 'error')) return trail.end('unavailable');
  const compile = opts.compileSchema ?? defaultSchemaCompiler;
  const inputSchema = await compile(ep.input_schema, 'input_schema');
  const laterSchemas = Promise.all([compile(ep.output_schema, 'output_schema'), compile(ep.error_schema, 'error_schema')] as const);
  const checked = checkInput(inputSchema, input.value);
  if (!checked.ok) {
    trail.add(...checked.diagnostics);
    return trail.end(checked.status);
  }
  trail.add(...checked.warnings);
  const prepared = await prepareExecution({
    trail,
    manifest: skill.manifest,
    ep,
    bundleDir: skill.dir,
    auth,
    input: input.value,
    cwd: opts.cwd,
    hostEnv: opts.env,
    runPath: runPath.path,
    writable,
    sandbox: req.sandbox ?? 'auto',
    allowUnsandboxed: policy.allowUnsandboxed,
    allowContainerNetwork: policy.allowContainerNetwork,
    builtins: opts.builtins,
    // Other runs' copies and sockets, whatever this run's policy (scratch-root.ts).
    protectedPaths: [...(opts.protectedPaths ?? []), scratchDir, tmpRoot],
    secretPaths: opts.secretPaths ?? [],
    ...(repositoryPaths !== undefined ? { repositoryPaths } : {}),
    monotonic: () => opts.clock.monotonic(),
    ...(opts.hostNode !== undefined ? { hostNode: opts.hostNode } : {}),
    ...(opts.lookupHost !== undefined ? { lookupHost: opts.lookupHost } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(opts.cgroups !== undefined ? { cgroups: opts.cgroups } : {}),
    ...(opts.wasmFuel !== undefined ? { wasmFuel: opts.wasmFuel } : {}),
    ...(opts.wasmSpare !== undefined ? { wasmSpare: opts.wasmSpare } : {}),
  });
  if ('status' in prepared) return trail.end(prepared.status);
  if (prepared.release !== undefined) cleanups.push(prepared.release);

  // 5. Execute and check the contract, 6. record: the start first, so a run killed outright is seen.
  await trail.started();
  // A refusal while the skill ran says, like one before it, where to grant what was refused.
  return withDenialHints(await executeAttempts(trail, prepared.execute, req.retries ?? 0, input.value, laterSchemas));
}
