/**
 * Small constructors shared by the built-in skills: outcomes, request fields, and bounds
 * clamped to the host's caps. Skills trust nothing about their input: the engine validates it
 * against the manifest's input_schema first, but a skill called directly still refuses a
 * malformed request with SKILL_REQUEST_INVALID instead of misbehaving.
 */
import type { BuiltinOutcome, PolicyDecision } from '../../core/run/index.js';
import type { Code } from '../../core/diagnostics.js';
import type { SkillCode } from '../../core/skills/codes.js';

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

/** A denial the skill makes itself (beyond the policy gate), with one of its own codes. */
export function selfDenied(code: SkillCode, reason: string, operation: string): BuiltinOutcome {
  return { status: 'denied', decision: { allowed: false, code, reason }, operation };
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
