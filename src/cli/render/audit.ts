/** What `skillctl audit verify` prints: the JSON document, or the bad lines and a summary. */
import { exitStatusOf } from '../../core/exit-status.js';
import type { AuditDiff, AuditVerification } from '../../core/run/index.js';
import type { Style } from '../context.js';
import { plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

export function auditJson(v: AuditVerification, file: string): string {
  return renderJson({ file, records: v.records, valid: exitStatusOf(v.diagnostics) === 0, bad_lines: v.bad_lines, head: v.head ?? null, diagnostics: v.diagnostics }).trimEnd();
}

export function renderAudit(v: AuditVerification, opts: { readonly style: Style; readonly exitCode: number }): string {
  const out: string[] = [];
  if (v.diagnostics.length > 0) out.push(renderGrouped(v.diagnostics, { style: opts.style }));
  const problems = v.bad_lines.length > 0 ? plural(v.bad_lines.length, 'bad line') : opts.exitCode !== 0 ? 'the log does not end at --head' : 'all intact';
  const summary = `${plural(v.records, 'record')} checked: ${problems}`;
  out.push((opts.exitCode === 0 ? opts.style.green('✔ ') : opts.style.red('✖ ')) + summary);
  return out.join('\n');
}

/** `audit diff --json`: both records' places and fingerprints, and which differ. */
export function auditDiffJson(d: AuditDiff): string {
  return renderJson({ same: d.diagnostics.length === 0, differ: d.differ, records: d.records, diagnostics: d.diagnostics }).trimEnd();
}

/** One row per fingerprint: same or differs, and the two digests when they differ. */
export function renderAuditDiff(d: AuditDiff, opts: { readonly style: Style }): string {
  const [a, b] = d.records;
  if (a === undefined || b === undefined || d.records.length < 2) return renderGrouped(d.diagnostics, { style: opts.style });
  // A record's run_id is whatever the log holds.
  const out = [visible(`a: ${a.file}:${a.line} (run ${a.run_id ?? '?'})`), visible(`b: ${b.file}:${b.line} (run ${b.run_id ?? '?'})`)];
  for (const k of ['args', 'result', 'side_effects'] as const) {
    const differs = d.differ.includes(k);
    out.push(`${k.padEnd(13)}${differs ? opts.style.red('differs') : opts.style.green('same')}`);
    if (differs) out.push(visible(`  a ${a.fingerprints[k] ?? 'null'}`), visible(`  b ${b.fingerprints[k] ?? 'null'}`));
  }
  return out.join('\n');
}
