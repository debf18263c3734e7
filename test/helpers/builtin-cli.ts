/**
 * End-to-end runs of the built-in skills through the real CLI: `skillctl run <skill_id> --input -`
 * in a temporary project, under a policy file given with --policy, appending to one audit log per
 * project (--audit FILE). A run's record is found in the log by the receipt_hash that --json
 * reports, and the whole log is checked with `skillctl audit verify` at the end.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SealedAuditRecord } from '../../src/core/run/index.js';
import { json, skillctlAsync, type CliRun } from './cli.js';
import { tempDir } from './tmp.js';

export interface RunDoc {
  readonly ok: boolean;
  readonly status: string;
  readonly exit_code: number;
  readonly output: unknown;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly policy: { readonly source: string; readonly decision: string; readonly reason: string };
  readonly audit: { readonly file: string; readonly receipt_hash: string } | null;
  readonly diagnostics: readonly { readonly code: string; readonly severity: string; readonly pointer?: string; readonly file?: string }[];
}

export interface Ran {
  readonly cli: CliRun;
  readonly doc: RunDoc;
}

export interface RunOpts {
  /** A policy file (from `policy()`); default: none, so the default policy applies. */
  readonly policy?: string;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
}

export class BuiltinProject {
  /** Real path of the project directory (the runs' working directory). */
  readonly dir: string;
  readonly audit: string;
  private policies = 0;

  constructor(prefix: string) {
    this.dir = realpathSync(tempDir(prefix));
    this.audit = join(this.dir, 'audit', 'runs.jsonl');
  }

  /** Writes a JSON policy file in the project; its relative paths resolve against the project. */
  async policy(doc: { permissions?: Record<string, unknown>; limits?: Record<string, unknown> }): Promise<string> {
    this.policies += 1;
    const file = join(this.dir, `policy-${this.policies}.json`);
    await writeFile(file, JSON.stringify({ version: 1, ...doc }));
    return file;
  }

  private args(skill: string, opts: RunOpts): string[] {
    return ['run', skill, '--input', '-', '--audit', this.audit, ...(opts.policy !== undefined ? ['--policy', opts.policy] : [])];
  }

  /** `skillctl run <skill> --input - --json`, the request on stdin. */
  async run(skill: string, request: unknown, opts: RunOpts = {}): Promise<Ran> {
    const input = typeof request === 'string' ? request : JSON.stringify(request);
    const cli = await skillctlAsync([...this.args(skill, opts), '--json'], { cwd: opts.cwd ?? this.dir, input, ...(opts.env !== undefined ? { env: opts.env } : {}) });
    return { cli, doc: json<RunDoc>(cli) };
  }

  /** The same without --json, as a user or an agent runs it: stdout is the output document. */
  plain(skill: string, request: unknown, opts: RunOpts = {}): Promise<CliRun> {
    return skillctlAsync(this.args(skill, opts), { cwd: opts.cwd ?? this.dir, input: JSON.stringify(request), ...(opts.env !== undefined ? { env: opts.env } : {}) });
  }

  /** The audit record of a run, by its receipt_hash. */
  async record(ran: Ran): Promise<SealedAuditRecord> {
    const hash = ran.doc.audit?.receipt_hash;
    assert.ok(hash !== undefined, 'the run reports its receipt');
    const lines = (await readFile(this.audit, 'utf8')).trim().split('\n');
    const found = lines.map((l) => JSON.parse(l) as SealedAuditRecord).filter((r) => r.receipt_hash === hash);
    assert.equal(found.length, 1, `one record with receipt ${hash}`);
    return found[0] as SealedAuditRecord;
  }

  /**
   * `skillctl audit verify` of the project's log: every record intact and chained, every run that
   * started also ended. Returns the number of runs (their `end` records).
   */
  async verifyAudit(): Promise<number> {
    const cli = await skillctlAsync(['audit', 'verify', this.audit, '--json'], { cwd: this.dir });
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const v = json<{ valid: boolean; records: number; bad_lines: unknown[]; diagnostics: unknown[] }>(cli);
    assert.deepEqual([v.valid, v.bad_lines, v.diagnostics], [true, [], []]);
    const lines = (await readFile(this.audit, 'utf8')).trim().split('\n');
    return lines.map((l) => JSON.parse(l) as SealedAuditRecord).filter((r) => r.event === 'end').length;
  }
}

const codes = (ran: Ran, severity = 'error'): string[] => ran.doc.diagnostics.filter((d) => d.severity === severity).map((d) => d.code);

/** Exit 0 with an accepted output; returns it. */
export function expectOk<T = Record<string, unknown>>(ran: Ran): T {
  assert.equal(ran.cli.code, 0, ran.cli.stdout + ran.cli.stderr);
  assert.equal(ran.doc.status, 'ok');
  return ran.doc.output as T;
}

/**
 * The output of a run whose bounds were clamped to the policy's `max_output_bytes` cap: the cap
 * was applied (POLICY_LIMIT_CAPPED) and the whole output fits it.
 */
export function expectCapped<T = Record<string, unknown>>(ran: Ran, cap: number): T {
  const out = expectOk<T>(ran);
  assert.ok(codes(ran, 'info').includes('POLICY_LIMIT_CAPPED'), 'the cap was applied');
  assert.ok(Buffer.byteLength(JSON.stringify(out)) <= cap, `the output fits the ${cap}-byte cap`);
  return out;
}

/** A skill's own error, shaped by its error_schema; the run exits with its code's exit class. */
export function expectSkillError(ran: Ran, code: string, exit = 1): void {
  assert.equal(ran.cli.code, exit, ran.cli.stdout);
  assert.equal(ran.doc.status, 'skill_error');
  assert.equal(ran.doc.error?.code, code);
  assert.deepEqual(codes(ran).sort(), ['RUN_SKILL_FAILED', code].sort());
}

/**
 * Refused by the policy: exit 3, the finding in the result, and an audit record that denies the
 * run and names the permission scope, the code and a reason.
 */
export async function expectDenied(p: BuiltinProject, ran: Ran, scope: string, code: string): Promise<SealedAuditRecord> {
  assert.equal(ran.cli.code, 3, ran.cli.stdout + ran.cli.stderr);
  assert.equal(ran.doc.status, 'denied');
  assert.ok(codes(ran).includes(code), `${code} in ${codes(ran).join(', ')}`);
  assert.equal(ran.doc.policy.decision, 'deny');
  const rec = await p.record(ran);
  assert.deepEqual([rec.policy.decision, rec.result.status, rec.result.exit_code], ['deny', 'denied', 3]);
  const denial = rec.policy.denials.find((d) => d.scope === scope && d.code === code);
  assert.ok(denial !== undefined, `a ${scope} ${code} denial in ${JSON.stringify(rec.policy.denials)}`);
  assert.ok(denial.reason.length > 0);
  assert.equal(rec.policy.reason, rec.policy.denials[0]?.reason);
  assert.ok(rec.result.codes.includes(code));
  return rec;
}

/** A request that breaks the input_schema: exit 2, SCHEMA_VALUE_INVALID at each pointer (sorted), nothing ran. */
export async function expectSchemaFindings(p: BuiltinProject, ran: Ran, pointers: readonly string[]): Promise<void> {
  assert.equal(ran.cli.code, 2, ran.cli.stdout);
  assert.equal(ran.doc.status, 'input_invalid');
  assert.ok(codes(ran).includes('RUN_INPUT_INVALID'));
  const found = ran.doc.diagnostics.filter((d) => d.code === 'SCHEMA_VALUE_INVALID');
  assert.ok(found.every((d) => d.file === 'input'));
  assert.deepEqual([...new Set(found.map((d) => d.pointer ?? ''))].sort(), [...pointers].sort());
  const rec = await p.record(ran);
  assert.deepEqual([rec.result.status, rec.result.exit_code, rec.result.attempts], ['input_invalid', 2, 0]);
}
