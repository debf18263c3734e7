/** What `skillctl validate` prints: the JSON document, SARIF, or findings grouped by file and a summary. */
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Style } from '../context.js';
import { isAgentSkill, type Checked } from '../validate-targets.js';
import { count, plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { renderSarif } from './sarif.js';
import { visible } from '../../core/visible.js';

export interface ValidateReport {
  /** One result per target, in the order of the targets. */
  readonly results: readonly Checked[];
  /** Arguments that named nothing readable, and files --fix could not fix. */
  readonly inputErrors: readonly Diagnostic[];
  /** Every finding, sorted. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface ValidateRenderOptions {
  readonly format: 'human' | 'json' | 'sarif';
  readonly style: Style;
  readonly quiet: boolean;
  /** The working directory, which SARIF locations are relative to. */
  readonly cwd: string;
  readonly exitCode: number;
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
    // Why each entrypoint is or is not determinism-eligible: metadata.determinism_eligible is all of them.
    entrypoints: r.entrypoints.map((e) => ({ entrypoint_id: e.entrypoint_id ?? null, pointer: e.pointer, determinism: e.determinism })),
    loader_error: r.loader_error ?? null,
    digests: {
      manifest_digest: { declared: r.digests.manifest.declared ?? null, computed: r.digests.manifest.computed ?? null },
      content_digest: { declared: r.digests.content.declared ?? null, computed: r.digests.content.computed ?? null },
    },
    // --fix: the file it rewrote and the fields it wrote, so a script knows what changed on disk.
    ...(r.fixed !== undefined ? { fixed: { file: r.file, fields: r.fixed } } : {}),
    diagnostics: r.diagnostics,
  };
}

/**
 * The one JSON object of `validate --json` (schemas/cli/validate.schema.json): a result per target,
 * the arguments that named nothing readable apart from them, and the tally the human summary gives.
 */
function validateJson(report: ValidateReport, exitCode: number): Record<string, unknown> {
  const c = count(report.diagnostics);
  const invalid = report.results.filter((r) => !r.valid).length;
  return {
    ok: exitCode === 0,
    results: report.results.map(resultJson),
    input_errors: report.inputErrors,
    summary: { checked: report.results.length, valid: report.results.length - invalid, invalid, errors: c.errors, warnings: c.warnings },
  };
}

function human(report: ValidateReport, opts: ValidateRenderOptions): string {
  const { results, diagnostics: all } = report;
  const lines: string[] = [];
  const shown = opts.quiet ? all.filter((d) => d.severity === 'error') : all;
  if (shown.length > 0) lines.push(renderGrouped(shown, { style: opts.style }));
  const c = count(all);
  const bad = results.filter((r) => !r.valid).length;
  const verdict = results.length === 0 ? 'none found' : bad === 0 ? 'all valid' : `${bad} invalid`;
  const skills = results.filter(isAgentSkill).length;
  const manifests = results.length - skills;
  const what = [...(manifests > 0 || skills === 0 ? [plural(manifests, 'manifest')] : []), ...(skills > 0 ? [plural(skills, 'SKILL.md folder')] : [])].join(' and ');
  const summary = `${what} checked: ${verdict}; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
  if (!opts.quiet || opts.exitCode !== 0) lines.push((opts.exitCode === 0 ? opts.style.green('✔ ') : opts.style.red('✖ ')) + summary);
  return lines.join('\n');
}

/** The report in the chosen format; empty when there is nothing to say (--quiet and all valid). */
export function renderValidate(report: ValidateReport, opts: ValidateRenderOptions): string {
  switch (opts.format) {
    case 'json':
      return renderJson(validateJson(report, opts.exitCode)).trimEnd();
    case 'sarif':
      return renderSarif(report.diagnostics, opts.cwd).trimEnd();
    case 'human':
      return human(report, opts);
    default: {
      const never: never = opts.format;
      return never;
    }
  }
}

/** The stderr notes of --fix: one line per file whose digests were rewritten. */
export function renderFixed(results: readonly Checked[]): string {
  return results.flatMap((r) => (r.fixed !== undefined ? [visible(`fixed ${r.fixed.join(' and ')} in ${r.file}`)] : [])).join('\n');
}
