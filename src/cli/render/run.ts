/** What `skillctl run` prints: the JSON document, or the output on stdout and what went wrong on stderr. */
import type { Diagnostic } from '../../core/diagnostics.js';
import type { DeterminismVerdict, ListedSkill, RunResult, SkillCatalogue } from '../../core/run/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { table } from './table.js';
import { visible } from '../../core/visible.js';

export function runJson(r: RunResult & { readonly determinism?: DeterminismVerdict }, auditFile: string | undefined): string {
  const { request, policy, result } = r.record;
  return renderJson({
    ok: r.status === 'ok',
    status: r.status,
    exit_code: r.exitCode,
    skill: { skill_id: request.skill_id, skill_version: request.skill_version, entrypoint_id: request.entrypoint_id, origin: request.origin },
    output: r.output ?? null,
    error: r.error ?? null,
    // As in `validate --json`: the manifest loader's error when the bundle was refused, else null.
    loader_error: result.loader_error ?? null,
    stderr: r.stderr ?? null,
    truncated: result.truncated,
    sandbox: result.sandbox,
    policy: { source: policy.source, decision: policy.decision, reason: policy.reason },
    fingerprints: r.record.fingerprints,
    // With --check-determinism: both runs' fingerprints and which differ.
    ...(r.determinism !== undefined ? { determinism: r.determinism } : {}),
    // `head`: the receipt of the log's last record now, to keep for `audit verify --head`.
    audit: auditFile !== undefined ? { file: auditFile, receipt_hash: r.record.receipt_hash, head: r.record.receipt_hash } : null,
    diagnostics: r.diagnostics,
  }).trimEnd();
}

/**
 * The skill's own stderr, ending in a newline, its control characters made visible: the skill is
 * untrusted, and its stderr goes to the user's terminal. It is read whole (and bounded) before
 * this is called, so no escape sequence is split between two writes.
 */
export function renderSkillStderr(r: RunResult): string | undefined {
  if (r.stderr === undefined) return undefined;
  const text = visible(r.stderr);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * For stderr: errors (and, unless quiet, warnings), then the skill's error document. Findings
 * about a file (the manifest, the policy, the input) go under its name; the others are about the
 * run of the target (not found, refused while running, failed), and go under the target's name.
 */
export function renderRunProblems(r: RunResult, diagnostics: readonly Diagnostic[], opts: { readonly style: Style; readonly quiet: boolean }): string {
  const out: string[] = [];
  const target = r.record.request.target;
  const shown = diagnostics.filter((d) => d.severity === 'error' || (!opts.quiet && d.severity === 'warning')).map((d) => (d.file === undefined ? { ...d, file: target } : d));
  if (shown.length > 0) out.push(renderGrouped(shown, { style: opts.style }));
  if (r.error !== undefined) out.push(renderJson({ error: r.error }).trimEnd());
  return out.join('\n');
}

/** For stdout: the accepted output, as JSON. */
export function renderRunOutput(r: RunResult): string | undefined {
  return r.output !== undefined ? renderJson(r.output).trimEnd() : undefined;
}

const ORIGIN: Record<ListedSkill['origin'], string> = { lock: 'project', default: 'built-in' };
const MAX_DESCRIPTION = 60;

/** What a row says besides the id: why `run <skill_id>` does not pick it, else its description. */
function note(s: ListedSkill, catalogue: SkillCatalogue): string {
  if (!s.selected && s.origin === 'lock') return `run it as ${s.skill_id}@${s.skill_version}`;
  if (!s.selected) {
    const shadowing = catalogue.skills.some((o) => o.origin === 'lock' && o.skill_id === s.skill_id && o.skill_version === s.skill_version);
    return shadowing ? "shadowed by the project's pin of the same version" : `shadowed by the project's pin; run it as ${s.skill_id}@${s.skill_version}`;
  }
  const d = (s.description ?? '').replace(/\s+/g, ' ').trim();
  return d.length > MAX_DESCRIPTION ? `${d.slice(0, MAX_DESCRIPTION - 1)}…` : d;
}

/** `run --list`: the skill ids `run` accepts, as a table or one JSON document. */
export function renderSkillList(catalogue: SkillCatalogue, opts: { readonly json: boolean; readonly style: Style }): string {
  if (opts.json) return renderJson(catalogue).trimEnd();
  if (catalogue.skills.length === 0) return "no skill ids to run: the default bundle is missing and the project's lock pins none";
  const rows = [['SKILL ID', 'VERSION', 'ORIGIN', 'SOURCE', 'ABOUT'], ...catalogue.skills.map((s) => [s.skill_id, s.skill_version, ORIGIN[s.origin], s.source, note(s, catalogue)])];
  const [head = '', ...body] = table(rows).split('\n');
  return [opts.style.bold(head), ...body].join('\n');
}
