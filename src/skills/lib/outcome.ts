/**
 * Small constructors shared by the built-in skills: outcomes, request fields, and bounds
 * clamped to the host's caps. Skills trust nothing about their input: the engine validates it
 * against the manifest's input_schema first, but a skill called directly still refuses a
 * malformed request with SKILL_REQUEST_INVALID instead of misbehaving.
 */
import type { BuiltinOutcome, PolicyDecision } from '../../core/run/index.js';
import type { Code } from '../../core/diagnostics.js';
import type { SkillCode } from '../../core/run/skill-codes.js';

export type Denial = Extract<PolicyDecision, { allowed: false }>;

export function ok(output: unknown): BuiltinOutcome {
  return { status: 'ok', output };
}

export function fail(code: SkillCode | Code, message: string, extra: Record<string, unknown> = {}): BuiltinOutcome {
  return { status: 'error', error: { ...extra, code, message } };
}

export function denied(decision: Denial, operation: string): BuiltinOutcome {
  return { status: 'denied', decision, operation };
}

/**
 * A denial the skill makes itself, beyond the policy gate's checks: `scope` names the permission
 * the refused operation needed, so the audit record names the refusal like the gate's own.
 */
export function selfDenied(scope: NonNullable<Denial['scope']>, code: SkillCode | Code, reason: string, operation: string): BuiltinOutcome {
  return { status: 'denied', decision: { allowed: false, code, reason, scope }, operation };
}

/** Thrown by the field readers below; `runSkill` turns it into SKILL_REQUEST_INVALID. */
export class RequestError extends Error {
  constructor(readonly pointer: string, message: string) {
    super(message);
    this.name = 'RequestError';
  }
}

export type Request = Readonly<Record<string, unknown>>;

export function asRequest(input: unknown): Request {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new RequestError('', 'the request must be a JSON object');
  return input as Request;
}

export function str(req: Request, key: string, fallback?: string): string {
  const v = req[key] ?? fallback;
  if (typeof v !== 'string') throw new RequestError(`/${key}`, `\`${key}\` must be a string`);
  return v;
}

export function optStr(req: Request, key: string): string | undefined {
  return req[key] === undefined ? undefined : str(req, key);
}

export function bool(req: Request, key: string, fallback: boolean): boolean {
  const v = req[key] ?? fallback;
  if (typeof v !== 'boolean') throw new RequestError(`/${key}`, `\`${key}\` must be a boolean`);
  return v;
}

/** A positive integer request bound, defaulted, then clamped to the host's cap. */
export function bound(req: Request, key: string, fallback: number, cap: number): number {
  const v = req[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new RequestError(`/${key}`, `\`${key}\` must be a positive integer`);
  return Math.max(1, Math.min(v, Math.floor(cap)));
}

/** Bytes of `value` as the engine measures an output against the host's cap (compact JSON, UTF-8). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * The output built from the largest `n` <= `max` whose JSON fits in `cap` bytes; undefined when
 * not even `build(0)` fits. `build` must grow with `n` (n is a count of bytes kept). The engine
 * discards an output larger than the host's output cap, so a skill whose request bound was clamped
 * to that cap still cuts its text further, for the rest of the response and for JSON escaping, and
 * reports the cut with its truncation flag.
 */
export function fitOutput<T>(cap: number, max: number, build: (n: number) => T): T | undefined {
  const whole = build(max);
  if (jsonBytes(whole) <= cap) return whole;
  let best: T | undefined;
  let lo = 0;
  let hi = max - 1;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const out = build(mid);
    if (jsonBytes(out) <= cap) {
      best = out;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

export function strList(req: Request, key: string, fallback: readonly string[]): string[] {
  const v = req[key] ?? fallback;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new RequestError(`/${key}`, `\`${key}\` must be a list of strings`);
  return [...(v as string[])];
}

/** Runs a skill body, mapping a malformed request to an error outcome. */
export async function runSkill(input: unknown, body: (req: Request) => Promise<BuiltinOutcome>): Promise<BuiltinOutcome> {
  let req: Request;
  try {
    req = asRequest(input);
    return await body(req);
  } catch (err) {
    if (err instanceof RequestError) return fail('SKILL_REQUEST_INVALID', err.message, { pointer: err.pointer });
    throw err;
  }
}
