/**
 * Builds the audit record of one run from what the engine learnt along the way. Everything in it
 * is identity, digest, decision or metadata: the input and output appear only as digests, and a
 * value refused at run time (which may come from the input) only as its scope and reason.
 */
import { diag, sortDiagnostics, type Code, type Diagnostic } from '../diagnostics.js';
import type { LoaderError } from '../manifest/index.js';
import type { Grant, GateUse } from '../policy/index.js';
import type { RunStatus } from './attempt.js';
import { exitStatusOf } from '../exit-status.js';
import { NO_FINGERPRINTS, type RunFingerprints } from './fingerprints.js';
import { randomBytes } from 'node:crypto';
import type { WasmReceipt } from './audit.js';
import { AUDIT_VERSION, type AuditDenial, type AuditEndRecord, type AuditFallback, type AuditRecord, type AuditResult, type AuditStartRecord } from './audit.js';

/** What the engine knows when a run ends; every field is optional because a run can stop early. */
export interface RunFacts {
  /** Pairs the run's `start` and `end` records. */
  runId: string;
  target: string;
  origin?: AuditRecord['request']['origin'];
  skillId?: string;
  skillVersion?: string;
  manifestDigest?: string;
  contentDigest?: string;
  /** Why the bundle was refused, as the manifest loader says it (a `bundle_invalid` run). */
  loaderError?: LoaderError;
  entrypointId?: string;
  runtime?: string;
  inputDigest?: string;
  policySource: string;
  policyDigest?: string;
  grant?: Grant;
  uses: readonly GateUse[];
  /** Whether the engine can observe what the skill used (built-ins only). */
  observable: boolean;
  attempts: number;
  sandbox?: AuditResult['sandbox'];
  runtimeVersion?: string;
  outputDigest?: string;
  truncated: { stdout: boolean; stderr: boolean };
  /** Refusals decided outside the policy gate (a tool call the approval gate stopped). */
  refusals?: readonly AuditDenial[];
  /** Where max_memory and the process count held, once the runtime is known. */
  caps?: AuditResult['caps'];
  /** The run's fingerprints, as far as it got (args once the input is read, the rest with a result). */
  fingerprints?: RunFingerprints;
  /** A wasm run's receipt: the module's digest, its output bytes' digest, caps used, its limits. */
  wasm?: WasmReceipt;
}

/** A fresh run id: random, like the timestamps the log is the only place of. */
export function newRunId(): string {
  return randomBytes(8).toString('hex');
}

export interface RecordTimes {
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly durationMs: number;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function requestOf(facts: RunFacts): AuditRecord['request'] {
  return {
    target: facts.target,
    origin: facts.origin ?? null,
    skill_id: facts.skillId ?? null,
    skill_version: facts.skillVersion ?? null,
    manifest_digest: facts.manifestDigest ?? null,
    content_digest: facts.contentDigest ?? null,
    entrypoint_id: facts.entrypointId ?? null,
    runtime: facts.runtime ?? null,
    input_digest: facts.inputDigest ?? null,
  };
}

function capabilitiesOf(facts: RunFacts, used: readonly string[] | null): AuditRecord['policy']['capabilities'] {
  return { requested: facts.grant?.requested ?? [], required: facts.grant?.required ?? [], granted: facts.grant?.grantedList ?? [], used };
}

/**
 * The `start` record: the request, the policy in force and the resolved grant, written before
 * anything of the skill runs, so that a run killed outright is still in the log.
 */
export function startRecord(facts: RunFacts, startedAt: number, skillctlVersion: string): AuditStartRecord {
  return {
    audit_version: AUDIT_VERSION,
    event: 'start',
    run_id: facts.runId,
    started_at: iso(startedAt),
    finished_at: null,
    skillctl_version: skillctlVersion,
    request: requestOf(facts),
    policy: {
      source: facts.policySource,
      policy_digest: facts.policyDigest ?? null,
      decision: 'allow',
      reason: 'every required permission is granted',
      denials: [],
      capabilities: capabilitiesOf(facts, null),
    },
    fingerprints: { ...(facts.fingerprints ?? NO_FINGERPRINTS), result: null, side_effects: null },
    result: null,
  };
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The most denials one record lists; the count of the others is `policy.denials_omitted`. Each
 * distinct refusal is listed once, but a reason may still vary with what the skill asked (an
 * argument's position, a file call's kind): a record stays small whatever the runtime, so that no
 * run can push its log past what `audit verify` reads.
 */
export const MAX_DENIALS = 100;

/** The `end` record: how the run ended, and why. */
export function buildRecord(
  facts: RunFacts,
  status: RunStatus,
  exitCode: number,
  diagnostics: readonly Diagnostic[],
  times: RecordTimes,
  skillctlVersion: string,
): AuditEndRecord {
  const all: AuditDenial[] = [
    ...(facts.grant?.denials ?? []).map((d) => ({ scope: d.scope, value: d.value, code: d.code, reason: d.reason })),
    // A process may ask the egress proxy, and a WASI module the file layer, any number of times:
    // each refusal once (a run's uses may come from more than one gate).
    ...uniqueBy(
      facts.uses.filter((u) => !u.allowed && u.fallback === undefined).map((u) => ({ scope: u.scope, code: u.code ?? 'POLICY_PERMISSION_DENIED', reason: u.reason ?? '' })),
      (d) => `${d.scope}\u0000${d.code}\u0000${d.reason}`,
    ),
    ...(facts.refusals ?? []),
  ];
  const denials = all.slice(0, MAX_DENIALS);
  // A refusal the skill did without (rg refused, the built-in search ran) denied the run nothing.
  const fallbacks: AuditFallback[] = facts.uses.flatMap((u) =>
    !u.allowed && u.fallback !== undefined ? [{ scope: u.scope, code: u.code ?? 'POLICY_PERMISSION_DENIED', reason: u.reason ?? '', instead: u.fallback }] : [],
  );
  const policyRefused = diagnostics.some((d) => d.code === 'POLICY_INVALID');
  const decision: AuditRecord['policy']['decision'] = denials.length > 0 || policyRefused ? 'deny' : facts.grant === undefined ? 'not_evaluated' : 'allow';
  let reason: string;
  if (policyRefused) reason = 'the host policy is not valid';
  else if (denials.length > 0) reason = (denials[0] as AuditDenial).reason;
  else if (facts.grant === undefined) reason = `the run stopped before the policy was evaluated (${status})`;
  else reason = 'every required permission is granted';
  const used = facts.observable
    ? [...new Set(facts.uses.filter((u) => u.allowed && u.covered_by !== undefined).map((u) => u.covered_by as string))].sort()
    : null;
  const codes = [...new Set(sortDiagnostics(diagnostics).filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  return {
    audit_version: AUDIT_VERSION,
    event: 'end',
    run_id: facts.runId,
    started_at: iso(times.startedAt),
    finished_at: iso(times.finishedAt),
    skillctl_version: skillctlVersion,
    request: requestOf(facts),
    policy: {
      source: facts.policySource,
      policy_digest: facts.policyDigest ?? null,
      decision,
      reason,
      denials,
      ...(all.length > denials.length ? { denials_omitted: all.length - denials.length } : {}),
      ...(fallbacks.length > 0 ? { fallbacks } : {}),
      capabilities: capabilitiesOf(facts, used),
    },
    fingerprints: facts.fingerprints ?? NO_FINGERPRINTS,
    result: {
      status,
      exit_code: exitCode,
      duration_ms: Math.max(0, Math.round(times.durationMs)),
      attempts: facts.attempts,
      sandbox: facts.sandbox ?? null,
      runtime_version: facts.runtimeVersion ?? null,
      output_digest: facts.outputDigest ?? null,
      truncated: facts.truncated,
      codes,
      caps: facts.attempts > 0 ? (facts.caps ?? null) : null,
      ...(facts.loaderError !== undefined ? { loader_error: facts.loaderError } : {}),
      ...(facts.wasm !== undefined && facts.attempts > 0 ? { wasm: facts.wasm } : {}),
    },
  };
}

/** A call refused before any run began: who asked for what, and why nothing ran. */
export interface Refusal {
  readonly target: string;
  readonly skillId?: string;
  readonly entrypointId?: string;
  readonly inputDigest?: string;
  readonly policySource: string;
  readonly policyDigest?: string;
  /** What was refused, e.g. `approval:<tool>`. */
  readonly scope: string;
  readonly code: Code;
  readonly reason: string;
  /** When it was refused (milliseconds since the epoch). */
  readonly at: number;
}

/**
 * The audit record of a refused call: decision `deny`, status `denied`, no attempt. A denial is
 * recorded like a run, so the log answers "what did the agent try" as well as "what ran".
 * Append it to a log (which seals and chains it), or seal it with sealRecord.
 */
export function refusalRecord(r: Refusal, skillctlVersion: string): AuditEndRecord {
  const facts: RunFacts = {
    runId: newRunId(),
    target: r.target,
    ...(r.skillId !== undefined ? { skillId: r.skillId } : {}),
    ...(r.entrypointId !== undefined ? { entrypointId: r.entrypointId } : {}),
    ...(r.inputDigest !== undefined ? { inputDigest: r.inputDigest } : {}),
    policySource: r.policySource,
    ...(r.policyDigest !== undefined ? { policyDigest: r.policyDigest } : {}),
    uses: [],
    observable: false,
    attempts: 0,
    truncated: { stdout: false, stderr: false },
    refusals: [{ scope: r.scope, code: r.code, reason: r.reason }],
  };
  const diagnostics = [diag(r.code, r.reason)];
  return buildRecord(facts, 'denied', exitStatusOf(diagnostics), diagnostics, { startedAt: r.at, finishedAt: r.at, durationMs: 0 }, skillctlVersion);
}
