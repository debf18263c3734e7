/** What `skillctl contract list|show` and `validate --contract` print. */
import type { Contract, ContractRule, ContractSet, PayloadsCheck } from '../../core/contracts/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Style } from '../context.js';
import { count, plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { table } from './table.js';
import { renderSarif } from './sarif.js';
import { visible } from '../../core/visible.js';

export interface ContractRenderOptions {
  readonly json: boolean;
  readonly style: Style;
  readonly quiet: boolean;
  readonly exitCode: number;
}

function summary(c: Contract): Record<string, unknown> {
  return {
    name: c.name,
    family: c.family,
    version: c.version,
    id: c.id,
    title: c.title ?? null,
    description: c.description ?? null,
    origin: c.origin,
    file: c.file,
    digest: c.digest,
    uses: c.uses,
  };
}

function verdict(style: Style, exitCode: number, line: string): string {
  return (exitCode === 0 ? style.green('✔ ') : style.red('✖ ')) + line;
}

/** `contract list`: a table of the usable contracts, the findings, a summary line. */
export function renderContractList(set: ContractSet, opts: ContractRenderOptions): string {
  if (opts.json) return renderJson({ contracts: set.contracts.map(summary), rejected: set.rejected, diagnostics: set.diagnostics }).trimEnd();
  const rows = [['NAME', 'ORIGIN', 'TITLE'], ...set.contracts.map((c) => [c.name, c.origin === 'builtin' ? 'built-in' : c.file, c.title ?? ''])];
  const out = [table(rows)];
  if (set.diagnostics.length > 0) out.push('\n' + renderGrouped(set.diagnostics, { style: opts.style }));
  const c = count(set.diagnostics);
  const line = `${plural(set.contracts.length, 'contract')} usable${set.rejected.length > 0 ? `, ${set.rejected.length} rejected` : ''}; ${plural(c.errors, 'error')}`;
  if (!opts.quiet || opts.exitCode !== 0) out.push(verdict(opts.style, opts.exitCode, line));
  return out.join('\n');
}

/** `contract show NAME` of a name whose files are all unusable: their findings. */
export function renderUnusableContract(diagnostics: readonly Diagnostic[], opts: ContractRenderOptions): string {
  return opts.json ? renderJson({ contract: null, diagnostics }).trimEnd() : renderGrouped(diagnostics, { style: opts.style });
}

/** `contract show NAME`: the contract's identity and its rules by payload path (with --json, its schema). */
export function renderContractShow(c: Contract, rules: readonly ContractRule[], opts: ContractRenderOptions): string {
  if (opts.json) return renderJson({ contract: summary(c), rules, schema: c.schema }).trimEnd();
  const head = [
    opts.style.bold(visible(c.name)) + (c.title !== undefined ? `  ${visible(c.title)}` : ''),
    ...(c.description !== undefined ? [visible(c.description)] : []),
    '',
    table([
      ['$id', c.id],
      ['file', `${c.file}${c.origin === 'builtin' ? ' (built-in)' : ''}`],
      ['digest', c.digest],
      ['uses', c.uses.length > 0 ? c.uses.join(', ') : '-'],
    ]),
    '',
  ];
  const rows = [['PATH', 'RULE', 'CODE', 'FROM'], ...rules.map((r) => [r.path, `${r.keyword} ${JSON.stringify(r.value)}`, r.code, r.source])];
  return [...head, table(rows)].join('\n');
}

/** `validate --contract`: one JSON document per payload, SARIF, or the findings and a summary. */
export function renderPayloads(check: PayloadsCheck, opts: ContractRenderOptions & { readonly format: 'human' | 'json' | 'sarif'; readonly cwd: string }): string {
  const all = check.diagnostics;
  // One object like every --json document (schemas/cli/validate.schema.json, the --contract form).
  if (opts.format === 'json') return renderJson({ ok: opts.exitCode === 0, contract: check.label, checked: check.checked, payloads: check.payloads }).trimEnd();
  if (opts.format === 'sarif') return renderSarif(all, opts.cwd).trimEnd();
  const out: string[] = [];
  const shown = opts.quiet ? all.filter((d) => d.severity === 'error') : all;
  if (shown.length > 0) out.push(renderGrouped(shown, { style: opts.style }));
  const bad = check.payloads.filter((d) => d.valid === false).length;
  const unread = check.payloads.filter((d) => d.valid === null).length;
  const c = count(all);
  const judged = bad === 0 ? (unread === 0 ? 'all conform' : 'none violates it') : `${bad} violate${bad === 1 ? 's' : ''} it`;
  const line = check.checked
    ? `${plural(check.payloads.length - unread, 'payload')} checked against ${check.label}: ${judged}${unread > 0 ? `; ${unread} could not be read` : ''}; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`
    : `contract ${check.label} is not usable (${plural(c.errors, 'error')}); no payload checked`;
  if (!opts.quiet || opts.exitCode !== 0) out.push(verdict(opts.style, opts.exitCode, line));
  return out.join('\n');
}
