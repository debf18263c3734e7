import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { SkillctlError } from '../../../core/errors.js';
import { findProjectRoot } from '../../../core/fs/index.js';
import { openAuditLog, runSkill, type RunResult } from '../../../core/run/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import { auditFileFor, policyInForce, readBytes, runOptions } from '../../run-env.js';
import type { RunCommandOptions } from './options.js';

function retriesOf(raw: string | undefined): number {
  const n = Number(raw ?? '0');
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new SkillctlError('USAGE', `--retries ${raw ?? ''}: a whole number from 0 to 3`);
  return n;
}

function resultJson(r: RunResult, auditFile: string | undefined): Record<string, unknown> {
  const { request, policy, result } = r.record;
  return {
    ok: r.status === 'ok',
    status: r.status,
    exit_code: r.exitCode,
    skill: { skill_id: request.skill_id, skill_version: request.skill_version, entrypoint_id: request.entrypoint_id, origin: request.origin },
    output: r.output ?? null,
    error: r.error ?? null,
    stderr: r.stderr ?? null,
    truncated: result.truncated,
    sandbox: result.sandbox,
    policy: { source: policy.source, decision: policy.decision, reason: policy.reason },
    audit: auditFile !== undefined ? { file: auditFile, receipt_hash: r.record.receipt_hash } : null,
    diagnostics: r.diagnostics,
  };
}

export async function run(ctx: Context, target: string, opts: RunCommandOptions): Promise<number> {
  const retries = retriesOf(opts.retries);
  const cwd = ctx.io.cwd;
  const root = await findProjectRoot(cwd);
  const policy = await policyInForce(ctx, root, opts.policy);
  const input = opts.input !== undefined ? await readBytes(ctx, opts.input, 'the input') : undefined;
  const auditFile = auditFileFor(cwd, root, opts.audit);
  // Opened before anything runs: a run that cannot be recorded does not happen.
  const log = auditFile !== undefined ? await openAuditLog(auditFile) : undefined;
  let result: RunResult;
  try {
    result = await runSkill(
      { target, ...(opts.entrypoint !== undefined ? { entrypoint: opts.entrypoint } : {}), ...(input !== undefined ? { input } : {}), retries, sandbox: opts.sandbox ?? 'auto' },
      runOptions(ctx, { root, policy, auditFile, contracts: opts.contracts ?? [] }),
    );
    await log?.append(result.record);
  } finally {
    await log?.close();
  }
  const diagnostics: Diagnostic[] = sortDiagnostics(result.diagnostics);
  if (ctx.opts.json) {
    ctx.out(renderJson(resultJson({ ...result, diagnostics }, auditFile)).trimEnd());
  } else {
    if (result.stderr !== undefined) ctx.io.stderr.write(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
    const shown = diagnostics.filter((d) => d.severity === 'error' || (!ctx.opts.quiet && d.severity === 'warning'));
    if (shown.length > 0) ctx.error(renderGrouped(shown, { style: ctx.style }));
    if (result.error !== undefined) ctx.error(renderJson({ error: result.error }).trimEnd());
    if (result.output !== undefined) ctx.out(renderJson(result.output).trimEnd());
  }
  return exitCodeFor({ diagnostics });
}
