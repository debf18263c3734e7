/** `skillctl run TARGET`: the policy and audit log in force (run-env.ts), one core call (runSkill), the output. */
import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { searchProjectRoot } from '../../../core/fs/index.js';
import { checkRunDeterminism, listSkills, lockPinLookup, openAuditLog, runSkill, type DeterminismResult } from '../../../core/run/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import { renderRunOutput, renderRunProblems, renderSkillList, renderSkillStderr, runJson } from '../../render/run.js';
import { noteRootRefusals, processFileLock } from '../../project.js';
import { auditFileFor, auditPlaceFor, policyInForce, projectSkillRoots, readBytes, runOptions, runResolveOptions, spareBuiltinThread } from '../../run-env.js';
import { auditFileExposure } from '../../project-writes.js';
import { spareWasmThread } from '../../wasm-spare.js';
import { retriesOf, targetOf, type RunCommandOptions } from './options.js';

/** `run --list`: the skill ids a run in this directory accepts. */
async function list(ctx: Context, root: string | undefined): Promise<number> {
  const catalogue = await listSkills({ ...runResolveOptions(root), ownPin: lockPinLookup });
  ctx.out(renderSkillList(catalogue, { json: ctx.opts.json, style: ctx.style }));
  if (!ctx.opts.json && catalogue.diagnostics.length > 0) ctx.error(renderGrouped(catalogue.diagnostics, { style: ctx.style }));
  return exitCodeFor(catalogue);
}

function refuse(ctx: Context, d: Diagnostic): number {
  const diagnostics = [d];
  if (ctx.opts.json) ctx.out(renderJson({ ok: false, status: 'refused', exit_code: exitCodeFor({ diagnostics }), diagnostics }).trimEnd());
  else ctx.error(renderGrouped(diagnostics, { style: ctx.style }));
  return exitCodeFor({ diagnostics });
}

export async function run(ctx: Context, given: string | undefined, opts: RunCommandOptions): Promise<number> {
  const named = targetOf(given, opts);
  // A pulled skill, by digest or pinned tag: its archive from the cache (run/oci.ts).
  const oci = named?.startsWith('oci://') === true ? await (await import('./oci.js')).ociRunTarget(ctx, named) : undefined;
  const target = oci?.path ?? named;
  const retries = retriesOf(opts.retries);
  const cwd = ctx.io.cwd;
  // A folder another user owns is never the root (PROJECT_ROOT_FOREIGN, with the run's findings).
  const found = await searchProjectRoot(cwd);
  const root = found.root;
  if (target === undefined) {
    noteRootRefusals(ctx, found.diagnostics);
    return list(ctx, root);
  }
  const policy = await policyInForce(ctx, root, opts.policy);
  const spare = spareBuiltinThread(target, opts.entrypoint, policy);
  const wasmSpare = spare === undefined ? await spareWasmThread(cwd, target, opts.entrypoint, policy) : undefined;
  const input = opts.input !== undefined ? await readBytes(ctx, opts.input, 'the input') : undefined;
  const auditFile = auditFileFor(cwd, root, opts.audit);
  // A log of one's own, away from the project's: one a skill of the project may rewrite is warned of.
  const auditWarnings = typeof opts.audit === 'string' && auditFile !== undefined ? await auditFileExposure(auditFile, root) : [];
  // Opened before anything runs: a run that cannot be recorded does not happen.
  const log = auditFile !== undefined ? await openAuditLog(auditFile, processFileLock(true), auditPlaceFor(cwd, root, opts.audit)) : undefined;
  // SIGINT or SIGTERM stops the skill, and the run is still recorded (as interrupted) and cleaned up.
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => interrupt.abort(signal);
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  let result: DeterminismResult;
  try {
    const request = { target, ...(opts.entrypoint !== undefined ? { entrypoint: opts.entrypoint } : {}), ...(input !== undefined ? { input } : {}), retries, sandbox: opts.sandbox ?? 'auto' } as const;
    const skillRoots = await projectSkillRoots(root, policy);
    const base = runOptions(ctx, { root, policy, auditFile, skillRoots, contracts: opts.contracts ?? [], ...(spare !== undefined ? { spare } : {}), ...(wasmSpare !== undefined ? { wasmSpare } : {}) });
    const resolve = oci !== undefined ? { ...base.resolve, archiveDigest: oci.archiveDigest, ...(oci.pin !== undefined ? { archivePin: oci.pin } : {}) } : base.resolve;
    const options = { ...base, resolve, ...(log !== undefined ? { audit: log } : {}), signal: interrupt.signal };
    if (opts.checkDeterminism === true) {
      const checked = await checkRunDeterminism(request, options);
      // Refused before anything ran: a finding like a command-line error, with no record.
      if ('refused' in checked) return refuse(ctx, checked.refused);
      result = checked;
    } else {
      result = await runSkill(request, options);
    }
  } finally {
    spare?.stop();
    wasmSpare?.stop();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await log?.close();
  }
  // An interrupted run exits with its signal's status (130, 143), as its record says.
  if (result.status === 'interrupted') {
    if (ctx.opts.json) ctx.out(runJson({ ...result, diagnostics: sortDiagnostics([...result.diagnostics, ...auditWarnings, ...found.diagnostics]) }, auditFile));
    return result.exitCode;
  }
  const diagnostics: Diagnostic[] = sortDiagnostics([...result.diagnostics, ...auditWarnings, ...found.diagnostics]);
  if (ctx.opts.json) {
    ctx.out(runJson({ ...result, diagnostics }, auditFile));
    return exitCodeFor({ diagnostics });
  }
  const stderr = renderSkillStderr(result);
  if (stderr !== undefined) ctx.io.stderr.write(stderr);
  const problems = renderRunProblems(result, diagnostics, { style: ctx.style, quiet: ctx.opts.quiet });
  if (problems !== '') ctx.error(problems);
  const output = renderRunOutput(result);
  if (output !== undefined) ctx.out(output);
  return exitCodeFor({ diagnostics });
}
