/**
 * `skillctl validate [PATH|GLOB|-]...`: the targets the arguments name, each validated as its
 * kind (fixed and validated again with --fix), on every core for a large run (src/entry/pool.ts),
 * one report. Also the validate chunk's entry points for the fast path (fastCli, see
 * src/entry/boot.cjs) and for the pool's worker threads (poolWorker).
 */
import { diag, sortDiagnostics } from '../../../core/diagnostics.js';
import { formatOfBytes, MANIFEST_MAX_BYTES, unreadable, validateManifest } from '../../../core/manifest/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { expandInputs, type Target } from '../../inputs.js';
import { readStdin } from '../../io.js';
import { renderFixed, renderValidate, type ValidateReport } from '../../render/validate.js';
import { skillRootInputs } from '../../skill-roots.js';
import { openPool, poolWorker as servePool } from '../../../entry/pool.js';
import type { PlainValidate } from '../../../entry/validate-argv.js';
import { fastCommand } from '../../../entry/plain-command.js';
import { serveValidate, toChecked, type Checked, type ValidateJob } from '../../validate-targets.js';
import { agentSkillOptions, outputFormat, type ValidateOptions } from './options.js';

/** What the pool's worker threads run (src/entry/pool.ts). */
export const poolWorker = servePool(serveValidate);

async function checkStdin(ctx: Context): Promise<Checked> {
  const bytes = await readStdin(ctx.io, MANIFEST_MAX_BYTES);
  if (bytes === undefined) {
    return toChecked(unreadable('-', diag('MANIFEST_TOO_LARGE', `stdin exceeds the ${MANIFEST_MAX_BYTES}-byte bound for a manifest`), 'yaml'));
  }
  return toChecked(await validateManifest(bytes, formatOfBytes(bytes), { file: '-' }));
}

export async function run(ctx: Context, args: readonly string[], opts: ValidateOptions): Promise<number> {
  // No path: the skill roots (or the skill folder the user is in); see ../../skill-roots.ts.
  const roots = args.length === 0 ? await skillRootInputs(ctx.io.cwd) : undefined;
  if (roots?.note !== undefined) ctx.note(ctx.style.dim(roots.note));
  const expanded = await expandInputs(ctx.io.cwd, roots?.args ?? args);
  const files = expanded.targets.filter((t): t is Exclude<Target, { kind: 'stdin' }> => t.kind !== 'stdin');
  const job: ValidateJob = { cwd: ctx.io.cwd, fix: opts.fix === true, skill: agentSkillOptions(opts), targets: files };
  const checked = await openPool<Checked>('validate', ctx.io.env).run(files.length, await serveValidate(job), job);
  const results: Checked[] = [];
  let f = 0;
  for (const t of expanded.targets) results.push(t.kind === 'stdin' ? await checkStdin(ctx) : (checked[f++] as Checked));
  const fixed = renderFixed(results);
  if (fixed !== '') ctx.note(fixed);
  const inputErrors = [...(roots?.diagnostics ?? []), ...expanded.diagnostics, ...results.flatMap((r) => (r.notFixed !== undefined ? [r.notFixed] : []))];
  const report: ValidateReport = { results, inputErrors, diagnostics: sortDiagnostics([...inputErrors, ...results.flatMap((r) => r.diagnostics)]) };
  const code = exitCodeFor(report);
  const text = renderValidate(report, { format: outputFormat(ctx.opts.json, opts), style: ctx.style, quiet: ctx.opts.quiet, cwd: ctx.io.cwd, exitCode: code });
  if (text !== '') ctx.out(text);
  return code;
}

/** Entry point for dist/boot.cjs: runs a plain `validate PATH...` without the CLI framework (src/entry/plain-command.ts). */
export function fastCli(plain: PlainValidate): void {
  fastCommand(plain, (ctx) => run(ctx, plain.paths, {}));
}
