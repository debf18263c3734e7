/** What `skillctl pin` prints: the JSON document, or each change and whether the lock was written. */
import type { PinChange, PinOutcome } from '../../core/pins/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

export function pinJson(outcome: PinOutcome, lockFile: string): string {
  return renderJson({
    ok: outcome.ok,
    lock: lockFile,
    lock_written: outcome.lockWritten,
    signatures_written: outcome.signaturesWritten,
    changes: outcome.changes,
    ...(outcome.skillRoots !== undefined ? { skill_roots: outcome.skillRoots } : {}),
    diagnostics: outcome.diagnostics,
  }).trimEnd();
}

function describe(c: PinChange): string {
  return visible(`${c.action.padEnd(9)} ${c.kind === 'pack' ? 'pack ' : ''}${c.id} ${c.version}  ${c.source}${c.from !== undefined ? ` (was ${c.from})` : ''}`);
}

/** The stderr notes: one line per signatures.json written. */
export function renderSigned(outcome: PinOutcome): string {
  return outcome.signaturesWritten.map((s) => `signed ${s}/signatures.json`).join('\n');
}

export function renderPin(outcome: PinOutcome, lockFile: string, opts: { readonly style: Style; readonly quiet: boolean }): string {
  const { style, quiet } = opts;
  const out: string[] = [];
  const shown = quiet ? outcome.diagnostics.filter((d) => d.severity === 'error') : outcome.diagnostics;
  if (shown.length > 0) out.push(renderGrouped(shown, { style }));
  if (!outcome.lockWritten) return [...out, `${style.red('✖')} ${lockFile} was not changed`].join('\n');
  if (outcome.skillRoots !== undefined) out.push(visible(`skill roots: ${outcome.skillRoots.to.join(', ')} (were ${outcome.skillRoots.from.join(', ')})`));
  for (const c of outcome.changes) if (c.action !== 'unchanged' || !quiet) out.push(describe(c));
  const changed = outcome.changes.filter((c) => c.action !== 'unchanged').length;
  out.push(`${style.green('✔')} ${lockFile}: ${changed} change${changed === 1 ? '' : 's'}, ${outcome.changes.length - changed} unchanged`);
  return out.join('\n');
}
