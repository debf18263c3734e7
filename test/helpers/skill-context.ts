/**
 * A BuiltinContext for calling a built-in skill in-process, around the engine's own policy gate:
 * the policy is loaded with loadPolicy (or is the default policy: read inside cwd), the grant is
 * the skill's manifest requested_permissions intersected with it (grantPermissions), and every
 * check goes through createPolicyGate, so denials carry the real POLICY_* codes and `gate.uses`
 * records each question as the audit record will. The limits are the manifest's runtime_limits
 * under the policy's caps, as the engine computes them, unless a test overrides them. Programs the
 * skill starts run in the engine's sandbox (`ctx.confine`, built by `confiner`), `auto` by default.
 */
import { resolveLimits } from '../../src/core/manifest/index.js';
import {
  capLimits,
  createPolicyGate,
  defaultPolicy,
  grantPermissions,
  type Grant,
  type HostLookup,
  type HostPolicy,
  type RecordingGate,
} from '../../src/core/policy/index.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { checkedFs } from '../../src/core/policy/index.js';
import { confiner, type BuiltinContext, type BuiltinLimits, type SandboxMode } from '../../src/core/run/index.js';
import { policyFrom } from './run.js';
import { contractOf } from './skill-contract.js';

/** A policy's permissions under short names; `limits` as in a policy file (`max_output_bytes: 1KiB`). */
export interface SkillPolicy {
  readonly read?: readonly string[];
  readonly write?: readonly string[];
  readonly http?: readonly string[];
  readonly exec?: readonly (string | { command: string; args?: string[]; deny_args?: string[] })[];
  readonly env?: readonly string[];
  readonly limits?: Readonly<Record<string, string | number>>;
}

export interface SkillContextOptions {
  readonly cwd: string;
  /** Default: the default policy (read inside cwd, nothing else). Relative paths resolve against cwd. */
  readonly policy?: SkillPolicy;
  /** Overrides of the computed limits. */
  readonly limits?: Partial<BuiltinLimits>;
  /** The scrubbed environment the skill sees; default PATH only. */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** DNS for the gate's URL checks; default the system resolver. */
  readonly lookupHost?: HostLookup;
  /** The run's `--sandbox`; default `auto`. */
  readonly sandbox?: SandboxMode;
  /** The policy's allow_unsandboxed; default the policy's own. */
  readonly allowUnsandboxed?: boolean;
  /** Paths no program may write (the engine's protectedPaths), real paths. */
  readonly protectedPaths?: readonly string[];
}

export interface SkillContext {
  readonly ctx: BuiltinContext;
  readonly gate: RecordingGate;
  readonly grant: Grant;
  readonly policy: HostPolicy;
  /** Each program `ctx.confine` set up: the sandbox it runs in and the findings about it. */
  readonly confined: { sandbox: 'bwrap' | 'none'; diagnostics: readonly Diagnostic[] }[];
}

export function hostPolicy(cwd: string, p: SkillPolicy | undefined): HostPolicy {
  if (p === undefined) return defaultPolicy(cwd);
  const permissions = Object.fromEntries(
    Object.entries({ 'fs.read': p.read, 'fs.write': p.write, 'net.http': p.http, exec: p.exec, env: p.env }).filter(([, v]) => v !== undefined),
  );
  return policyFrom({ permissions, ...(p.limits !== undefined ? { limits: p.limits } : {}) }, cwd);
}

export async function skillContext(id: string, opts: SkillContextOptions): Promise<SkillContext> {
  const ep = (await contractOf(id)).manifest.entrypoints[0];
  if (ep === undefined) throw new Error(`${id} has no entrypoint`);
  const env = opts.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const policy = hostPolicy(opts.cwd, opts.policy);
  const grant = await grantPermissions(ep.requested_permissions, ep.required_permissions, policy, { cwd: opts.cwd, pathEnv: env.PATH ?? '' });
  const gate = createPolicyGate(grant.granted, {
    cwd: opts.cwd,
    pathEnv: env.PATH ?? '',
    ...(opts.protectedPaths !== undefined ? { protectedPaths: opts.protectedPaths } : {}),
    ...(opts.lookupHost !== undefined ? { lookupHost: opts.lookupHost } : {}),
  });
  const capped = capLimits(resolveLimits(ep.runtime_limits), policy.limits).limits;
  const confined: SkillContext['confined'] = [];
  const confine = confiner({
    mode: opts.sandbox ?? 'auto',
    allowUnsandboxed: opts.allowUnsandboxed ?? policy.allowUnsandboxed,
    pathEnv: env.PATH ?? '',
    // The skill tests' policies name no program inside their write grants.
    writable: [],
    granted: grant.granted,
    protectedPaths: opts.protectedPaths ?? [],
    gate,
    report: (sandbox, diagnostics) => confined.push({ sandbox, diagnostics }),
    tmpfsBytes: Math.floor(capped.memoryMiB * 1024 * 1024),
  });
  const ctx: BuiltinContext = {
    cwd: opts.cwd,
    policy: gate,
    files: checkedFs(gate, opts.cwd),
    limits: { timeoutMs: capped.timeoutMs, maxOutputBytes: capped.maxOutputBytes, memoryMiB: capped.memoryMiB, ...opts.limits },
    env,
    signal: opts.signal ?? new AbortController().signal,
    now: () => performance.now(),
    confine,
    commit: (work) => work(),
    scratch: () => undefined,
  };
  return { ctx, gate, grant, policy, confined };
}
