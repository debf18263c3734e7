import { diag, sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { MANIFEST_MAX_BYTES, unreadable, validateManifest } from '../../../core/manifest/index.js';
import type { Context } from '../../context.js';
import { EXIT, exitCodeFor } from '../../exit.js';
import { expandInputs, type Target } from '../../inputs.js';
import { processIO, readStdin } from '../../io.js';
import { count, plural, renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import { renderSarif } from '../../render/sarif.js';
import type { AgentSkillOptions } from '../../../core/agent-skills/index.js';
import { checkTarget, CONCURRENCY, isAgentSkill, mapLimited, toChecked, type Checked, type WorkerRequest } from '../../validate-targets.js';
import type { PlainValidate } from '../../validate-argv.js';
import { runPlainValidate } from '../../validate-fast.js';
import type { ValidateOptions } from './options.js';

/** Below this many targets a worker costs more to start than it saves. */
const PARALLEL_THRESHOLD = 200;

async function checkStdin(ctx: Context): Promise<Checked> {
  const bytes = await readStdin(ctx.io, MANIFEST_MAX_BYTES);
  if (bytes === undefined) {
    return toChecked(unreadable('-', diag('MANIFEST_TOO_LARGE', `stdin exceeds the ${MANIFEST_MAX_BYTES}-byte bound for a manifest`), 'yaml'));
  }
  const format = /^\s*\{/.test(bytes.subarray(0, 64).toString('utf8')) ? 'json' : 'yaml';
  return toChecked(await validateManifest(bytes, format, { file: '-' }));
}

/** Worker-thread side: validates its share of the targets and posts the plain results back. */
export async function runWorker(job: WorkerRequest): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  try {
    const results = await mapLimited(job.targets, CONCURRENCY, (t) => checkTarget(job.cwd, t, job.fix, job.skill));
    parentPort?.postMessage({ ok: true, results });
  } catch (err) {
    parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}

async function inWorker(boot: string, job: WorkerRequest): Promise<Checked[]> {
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolvePromise, reject) => {
    // Started through dist/boot.cjs, so the worker runs this same chunk with its code cache.
    const w = new Worker(boot, { argv: ['--skillctl-worker'], workerData: { chunk: 'cmd/validate.cjs', entry: 'runWorker', job } });
    w.once('message', (m: { ok: boolean; results?: Checked[]; error?: string }) => {
      if (m.ok && m.results !== undefined) resolvePromise(m.results);
      else reject(new Error(m.error ?? 'validate worker failed'));
      void w.terminate();
    });
    w.once('error', reject);
  });
}

/**
 * Validates file targets, in this thread and, for large runs, in worker threads (YAML parsing is
 * CPU-bound). Targets are dealt round-robin so each thread gets a similar mix; the order of the
 * results is the order of the targets.
 */
async function checkFiles(ctx: Context, targets: readonly Exclude<Target, { kind: 'stdin' }>[], fix: boolean, skill: AgentSkillOptions): Promise<Checked[]> {
  const boot = (globalThis as Record<symbol, unknown>)[Symbol.for('skillctl.workerBoot')];
  const inThisThread = (): Promise<Checked[]> => mapLimited(targets, CONCURRENCY, (t) => checkTarget(ctx.io.cwd, t, fix, skill));
  if (targets.length < PARALLEL_THRESHOLD || typeof boot !== 'string') return inThisThread();
  // SKILLCTL_THREADS caps the threads (1: none), for machines shared with other jobs.
  const cap = Number(ctx.io.env.SKILLCTL_THREADS ?? 4);
  const { availableParallelism } = await import('node:os');
  const threads = Math.max(1, Math.min(availableParallelism(), Number.isInteger(cap) && cap > 0 ? cap : 4));
  if (threads < 2) return inThisThread();
  const shares = Array.from({ length: threads }, (_, k) => targets.filter((_, i) => i % threads === k));
  const parts = await Promise.all(
    shares.map((share, k) =>
      k === 0
        ? mapLimited(share, CONCURRENCY, (t) => checkTarget(ctx.io.cwd, t, fix, skill))
        : inWorker(boot, { kind: 'skillctl.validate', cwd: ctx.io.cwd, fix, skill, targets: share }),
    ),
  );
  return targets.map((_, i) => (parts[i % threads] as Checked[])[Math.floor(i / threads)] as Checked);
}

function resultJson(r: Checked): Record<string, unknown> {
  if (isAgentSkill(r)) {
    return {
      kind: 'agent-skill',
      file: r.file,
      dir: r.dir ?? null,
      name: r.properties?.name ?? null,
      valid: r.valid,
      profile: r.profile,
      name_charset: r.nameCharset,
      properties: r.properties ?? null,
      content_digest: r.contentDigest ?? null,
      diagnostics: r.diagnostics,
    };
  }
  return {
    file: r.file,
    ...(r.bundle !== undefined ? { bundle: r.bundle } : {}),
    skill_id: r.skill_id ?? null,
    skill_version: r.skill_version ?? null,
    valid: r.valid,
    metadata: r.metadata,
    loader_error: r.loader_error ?? null,
    digests: {
      manifest_digest: { declared: r.digests.manifest.declared ?? null, computed: r.digests.manifest.computed ?? null },
      content_digest: { declared: r.digests.content.declared ?? null, computed: r.digests.content.computed ?? null },
    },
    diagnostics: r.diagnostics,
  };
}

export async function run(ctx: Context, args: readonly string[], opts: ValidateOptions): Promise<number> {
  const expanded = await expandInputs(ctx.io.cwd, args.length === 0 ? ['.'] : args);
  const files = expanded.targets.filter((t): t is Exclude<Target, { kind: 'stdin' }> => t.kind !== 'stdin');
  const skill: AgentSkillOptions = { profile: opts.strict === true ? 'strict' : (opts.profile ?? 'default'), nameCharset: opts.nameCharset ?? 'ascii' };
  const checked = await checkFiles(ctx, files, opts.fix === true, skill);
  const results: Checked[] = [];
  let f = 0;
  for (const t of expanded.targets) results.push(t.kind === 'stdin' ? await checkStdin(ctx) : (checked[f++] as Checked));
  for (const r of results) if (r.fixed !== undefined) ctx.note(`fixed ${r.fixed.join(' and ')} in ${r.file}`);
  const extra: Diagnostic[] = results.flatMap((r) => (r.notFixed !== undefined ? [r.notFixed] : []));
  const inputErrors = [...expanded.diagnostics, ...extra];
  const all = sortDiagnostics([...inputErrors, ...results.flatMap((r) => r.diagnostics)]);
  const code = exitCodeFor({ diagnostics: all });
  const format = ctx.opts.json ? 'json' : (opts.format ?? 'human');
  if (format === 'json') {
    const doc = results.map(resultJson);
    if (inputErrors.length > 0) doc.push({ file: null, valid: false, diagnostics: inputErrors });
    ctx.out(renderJson(doc).trimEnd());
  } else if (format === 'sarif') {
    ctx.out(renderSarif(all, ctx.io.cwd).trimEnd());
  } else {
    const shown = ctx.opts.quiet ? all.filter((d) => d.severity === 'error') : all;
    if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
    const c = count(all);
    const bad = results.filter((r) => !r.valid).length;
    const verdict = results.length === 0 ? 'none found' : bad === 0 ? 'all valid' : `${bad} invalid`;
    const skills = results.filter(isAgentSkill).length;
    const manifests = results.length - skills;
    const what = [...(manifests > 0 || skills === 0 ? [plural(manifests, 'manifest')] : []), ...(skills > 0 ? [plural(skills, 'SKILL.md folder')] : [])].join(' and ');
    const summary = `${what} checked: ${verdict}; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
    if (!ctx.opts.quiet || code !== 0) ctx.out((code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')) + summary);
  }
  return code;
}

/**
 * Entry point for bin/skillctl.js (through dist/boot.cjs): runs a plain `validate PATH...`
 * without the CLI framework (see validate-fast.ts).
 */
export function fastCli(plain: PlainValidate): void {
  runPlainValidate(plain, processIO(), (ctx, paths) => run(ctx, paths, {})).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = EXIT.findings;
    },
  );
}
