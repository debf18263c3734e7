/**
 * `skillctl run` as a library call: resolve the bundle, choose the entrypoint, intersect its
 * permissions with the host policy (refusing before anything executes when a required one is
 * missing), check the input against input_schema, execute under limits, accept an output only if
 * it conforms to output_schema (running again up to `retries` times), and return the result
 * with its sealed audit record. The caller appends the record; nothing here prints or exits.
 */
import { randomBytes } from 'node:crypto';
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize, jcsDigest } from '../digest/index.js';
import { exitStatusOf } from '../exit-status.js';
// Not through manifest/index.js or policy/index.js: those hold the YAML parser, the manifest
// validators and the policy file loader, which a run reaches through loadFull (full.ts) only
// when it needs them (docs/performance.md).
import { resolveLimits } from '../manifest/limits.js';
import type { Entrypoint, Manifest } from '../manifest/model.js';
import { createPolicyGate, type HostLookup } from '../policy/gate.js';
import { grantPermissions, type Grant } from '../policy/grant.js';
import { capLimits } from '../policy/limits.js';
import type { HostPolicy } from '../policy/model.js';
import { resolveReal } from '../policy/paths.js';
import type { Attempt, RunStatus } from './attempt.js';
import { attemptLoop, schemaFindings } from './attempts.js';
import type { SealedAuditRecord } from './audit.js';
import { defaultSchemaCompiler, type SchemaCompiler } from './contract.js';
import { readJsonValue } from './json.js';
import { buildRecord, type RunFacts } from './record.js';
import { resolveSkill, type ResolveOptions } from './resolve.js';
import { confiner, runBuiltin, type BuiltinLookup } from './runtimes/builtin.js';
import { runContainer } from './runtimes/container.js';
import type { HostNode } from './runtimes/interpreter.js';
import { prepareProcess, runProcess } from './runtimes/process.js';
import type { SandboxMode } from './sandbox.js';

/** Time, passed in: `now` for the record's timestamps, `monotonic` for durations. */
export interface Clock {
  now(): number;
  monotonic(): number;
}

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
  /** Implementations of `builtin:<skill_id>` commands. */
  readonly builtins: BuiltinLookup;
  /** Where skill ids are looked up (project root, package root, pin lookup). */
  readonly resolve?: Omit<ResolveOptions, 'cwd'>;
  /**
   * Compiles the entrypoint's input, output and error schemas; default: build-time validators
   * for the default bundle, else ajv. Plug payload contracts in here (schemas that `$ref` them).
   */
  readonly compileSchema?: SchemaCompiler;
  readonly hostNode?: HostNode;
  /** DNS for URL checks; default: the system resolver. */
  readonly lookupHost?: HostLookup;
  readonly skillctlVersion: string;
  readonly signal?: AbortSignal;
  /**
   * Paths no skill may write even inside a write grant: pass the policy file, the lock file and
   * the audit log, so a skill cannot widen its own grant or rewrite the record of what it did.
   */
  readonly protectedPaths?: readonly string[];
}

export interface RunResult {
  readonly status: RunStatus;
  readonly exitCode: number;
  /** The accepted output: present only when it conformed to output_schema. */
  readonly output?: unknown;
  /** An error the skill reported that conforms to its error_schema. */
  readonly error?: unknown;
  /** What a process wrote on stderr (bounded), for the user; never in the record. */
  readonly stderr?: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly record: SealedAuditRecord;
}

function chooseEntrypoint(m: Manifest, id: string | undefined): Entrypoint | Diagnostic {
  if (id !== undefined) {
    const ep = m.entrypoints.find((e) => e.entrypoint_id === id);
    return ep ?? diag('RUN_ENTRYPOINT_NOT_FOUND', `no entrypoint ${id}; there are ${m.entrypoints.map((e) => e.entrypoint_id).join(', ')}`);
  }
  if (m.entrypoints.length === 1) return m.entrypoints[0] as Entrypoint;
  return m.entrypoints.find((e) => e.entrypoint_id === 'main') ?? diag('RUN_ENTRYPOINT_REQUIRED', `choose one of ${m.entrypoints.map((e) => e.entrypoint_id).join(', ')} with --entrypoint`);
}

function requiredEnv(m: Manifest, ep: Entrypoint): string[] {
  return ep.required_environment_variables ?? m.execution_context?.required_environment_variables ?? [];
}

/** PATH, the granted variables that are set, and the declared locale and time zone. */
function scrubbedEnv(m: Manifest, ep: Entrypoint, grant: Grant, host: RunOptions['env']): Record<string, string> {
  const env: Record<string, string> = { PATH: host.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
  for (const name of grant.granted.env) {
    const v = host[name];
    if (v !== undefined) env[name] = v;
  }
  const locale = ep.execution_context?.locale ?? m.execution_context?.locale;
  const tz = ep.execution_context?.timezone ?? m.execution_context?.timezone;
  if (locale !== undefined) env.LC_ALL = locale;
  if (tz !== undefined) env.TZ = tz;
  return env;
}

export async function runSkill(req: RunRequest, opts: RunOptions): Promise<RunResult> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await runOnce(req, opts, cleanups);
  } finally {
    // An unpacked archive goes whatever happened; failing to remove it does not change the run's result.
    for (const c of cleanups) await c().catch(() => undefined);
  }
}

async function runOnce(req: RunRequest, opts: RunOptions, cleanups: (() => Promise<void>)[]): Promise<RunResult> {
  const startedAt = opts.clock.now();
  const t0 = opts.clock.monotonic();
  const diagnostics: Diagnostic[] = [];
  const policyOk = 'invalid' in opts.policy ? undefined : opts.policy;
  const facts: RunFacts = {
    target: req.target,
    policySource: opts.policy.source,
    ...(policyOk !== undefined ? { policyDigest: policyOk.digest } : {}),
    uses: [],
    observable: false,
    attempts: 0,
    truncated: { stdout: false, stderr: false },
  };
  let stderr: string | undefined;
  /** The manifest file and the entrypoint's pointer, once known. */
  const at: { file?: string; pointer: string } = { pointer: '' };
  const end = (status: RunStatus, extra: { output?: unknown; error?: unknown } = {}): RunResult => {
    // The engine's own findings about the entrypoint point into it from the manifest's root.
    for (const [i, d] of diagnostics.entries()) {
      if (d.file === undefined && d.pointer !== undefined && at.file !== undefined) diagnostics[i] = { ...d, file: at.file, pointer: `${at.pointer}${d.pointer}` };
    }
    const exitCode = exitStatusOf(diagnostics);
    const finishedAt = opts.clock.now();
    const record = buildRecord(facts, status, exitCode, diagnostics, { startedAt, finishedAt, durationMs: opts.clock.monotonic() - t0 }, opts.skillctlVersion);
    return { status, exitCode, ...extra, ...(stderr !== undefined && stderr !== '' ? { stderr } : {}), diagnostics, record };
  };

  const resolution = await resolveSkill(req.target, { cwd: opts.cwd, ...opts.resolve });
  if (resolution.cleanup !== undefined) cleanups.push(resolution.cleanup);
  diagnostics.push(...resolution.diagnostics);
  Object.assign(facts, {
    skillId: resolution.identity?.skill_id,
    skillVersion: resolution.identity?.skill_version,
    manifestDigest: resolution.identity?.manifest_digest,
    contentDigest: resolution.identity?.content_digest,
  });
  const skill = resolution.skill;
  if (skill === undefined) {
    const invalid = resolution.diagnostics.some((d) => d.code === 'RUN_BUNDLE_INVALID' || d.code === 'RUN_PIN_MISMATCH');
    return end(invalid ? 'bundle_invalid' : 'not_found');
  }
  facts.origin = skill.origin;
  at.file = skill.file;
  const chosen = chooseEntrypoint(skill.manifest, req.entrypoint);
  if (!('entrypoint_id' in chosen)) {
    diagnostics.push(chosen);
    return end('not_found');
  }
  const ep = chosen;
  at.pointer = `/entrypoints/${skill.manifest.entrypoints.indexOf(ep)}`;
  Object.assign(facts, { entrypointId: ep.entrypoint_id, runtime: ep.runtime });

  if (policyOk === undefined) {
    diagnostics.push(...(opts.policy as { invalid: readonly Diagnostic[] }).invalid);
    return end('policy_invalid');
  }

  // The input may be any JSON value its input_schema accepts.
  const inputDoc = await readJsonValue(req.input ?? Buffer.from('{}'));
  if ('errors' in inputDoc) {
    diagnostics.push(diag('RUN_INPUT_INVALID', 'the input is not a JSON document', { file: 'input' }), ...schemaFindings(inputDoc.errors, 'input'));
    return end('input_invalid');
  }
  const input = inputDoc.data;
  facts.inputDigest = jcsDigest(input);

  // The policy decision comes before anything of the skill runs.
  const grant = await grantPermissions(ep.requested_permissions, ep.required_permissions, policyOk, { cwd: opts.cwd, pathEnv: opts.env.PATH ?? '' });
  facts.grant = grant;
  if (grant.denials.length > 0) {
    for (const d of grant.denials) diagnostics.push(diag(d.code, d.reason, { pointer: `/required_permissions/${d.scope}`, hint: `grant it in ${policyOk.source === 'default' ? 'skillctl.policy.yaml' : policyOk.source}` }));
    return end('denied');
  }
  const missingEnv = requiredEnv(skill.manifest, ep).filter((n) => grant.granted.env.includes(n) && opts.env[n] === undefined);
  for (const n of missingEnv) diagnostics.push(diag('RUN_ENV_MISSING', `${n} is required and granted but not set`));
  for (const n of requiredEnv(skill.manifest, ep).filter((x) => !grant.granted.env.includes(x))) {
    diagnostics.push(diag('POLICY_PERMISSION_DENIED', `required environment variable ${n} is not granted by the host policy`, { pointer: '/required_environment_variables' }));
  }
  if (diagnostics.some((d) => d.code === 'POLICY_PERMISSION_DENIED')) return end('denied');
  if (missingEnv.length > 0) return end('unavailable');

  const capped = capLimits(resolveLimits(ep.runtime_limits), policyOk.limits);
  diagnostics.push(...capped.diagnostics);
  const limits = capped.limits;

  const compile = opts.compileSchema ?? defaultSchemaCompiler;
  const inputSchema = await compile(ep.input_schema, 'input_schema');
  // The output and error schemas compile while the skill runs.
  const laterSchemas = Promise.all([compile(ep.output_schema, 'output_schema'), compile(ep.error_schema, 'error_schema')]);
  if ('error' in inputSchema) {
    diagnostics.push({ ...inputSchema.error, pointer: '/input_schema' }, diag('RUN_BUNDLE_INVALID', 'the input_schema cannot be compiled'));
    return end('bundle_invalid');
  }
  const inputAll = inputSchema.check(input);
  const inputFindings = inputAll.filter((d) => d.severity === 'error');
  diagnostics.push(...schemaFindings(inputAll.filter((d) => d.severity !== 'error'), 'input'));
  if (inputFindings.length > 0) {
    diagnostics.push(diag('RUN_INPUT_INVALID', "the input does not conform to the entrypoint's input_schema", { file: 'input' }), ...schemaFindings(inputFindings, 'input'));
    return end('input_invalid');
  }

  const env = scrubbedEnv(skill.manifest, ep, grant, opts.env);
  const protectedPaths = await Promise.all((opts.protectedPaths ?? []).map((p) => resolveReal(p).catch(() => p)));
  const gate = createPolicyGate(grant.granted, {
    cwd: opts.cwd,
    pathEnv: env.PATH ?? '',
    protectedPaths,
    ...(opts.lookupHost !== undefined ? { lookupHost: opts.lookupHost } : {}),
  });
  facts.uses = gate.uses;
  const stdinBytes = Buffer.from(canonicalize(input));
  let execute: () => Promise<Attempt>;
  switch (ep.runtime) {
    case 'builtin': {
      const id = (typeof ep.command === 'string' ? ep.command : (ep.command[0] ?? '')).trim().replace(/^builtin:/, '');
      const impl = await opts.builtins(id);
      if (impl === undefined) {
        diagnostics.push(diag('RUN_BUILTIN_UNKNOWN', `this skillctl has no builtin:${id}`, { pointer: '/command', hint: 'upgrade skillctl, or run a bundle with a process runtime' }));
        return end('unavailable');
      }
      facts.observable = true;
      facts.sandbox = 'in-process';
      const bl = { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxOutputBytes, memoryMiB: limits.memoryMiB };
      // A program the skill starts (shell.exec_safe, git, rg) runs in the sandbox of process
      // runtimes; the record then names that sandbox.
      const confine = confiner({
        mode: req.sandbox ?? 'auto',
        pathEnv: env.PATH ?? '',
        granted: grant.granted,
        protectedPaths,
        report: (sandbox, found) => {
          facts.sandbox = sandbox;
          for (const d of found) if (!diagnostics.some((x) => x.code === d.code)) diagnostics.push(d);
        },
      });
      execute = () => runBuiltin({ skill: impl, cwd: opts.cwd, gate, limits: bl, env, monotonic: () => opts.clock.monotonic(), confine }, structuredClone(input), opts.signal);
      break;
    }
    case 'container': {
      facts.sandbox = 'container';
      const runId = randomBytes(6).toString('hex');
      execute = () => runContainer({ ep, bundleDir: skill.dir, granted: grant.granted, limits, env, runId, protectedPaths }, stdinBytes, opts.signal);
      break;
    }
    default: {
      const prep = await prepareProcess({ ep, bundleDir: skill.dir, grant, gate, limits, env, sandbox: req.sandbox ?? 'auto', protectedPaths, ...(opts.hostNode !== undefined ? { hostNode: opts.hostNode } : {}) });
      diagnostics.push(...prep.diagnostics);
      if ('failure' in prep) {
        const failure = prep.failure as Extract<Attempt['outcome'], { kind: 'failed' }>;
        diagnostics.push(...failure.diagnostics);
        return end(failure.status);
      }
      facts.sandbox = prep.prepared.sandbox;
      if (prep.prepared.runtime.version !== undefined) facts.runtimeVersion = prep.prepared.runtime.version;
      execute = () => runProcess(prep.prepared, { ep, bundleDir: skill.dir, grant, gate, limits, env, sandbox: req.sandbox ?? 'auto' }, stdinBytes, opts.signal);
    }
  }
  return attemptLoop(req, execute, input, laterSchemas, diagnostics, facts, end, (s) => (stderr = s));
}
