/** What `skillctl audit verify` prints: the JSON document, or the bad lines and a summary. */
import { exitStatusOf } from '../../core/exit-status.js';
import type { AuditVerification } from '../../core/run/index.js';
import type { Style } from '../context.js';
import { plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

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
