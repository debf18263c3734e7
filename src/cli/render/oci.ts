/** What `push` and `pull oci://…` print: the JSON document, or the reference with its digest. */
import type { PullResult, PushResult } from '../../core/oci/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

export interface OciRenderOptions {
  readonly style: Style;
  readonly quiet: boolean;
  readonly label: string;
  readonly show?: (path: string) => string;
}

export function pushJson(r: PushResult): string {
  return renderJson({
    ok: r.ok,
    reference: r.reference ?? null,
    digest: r.digest ?? null,
    config: r.config ?? null,
    layer: r.layer ?? null,
    uploaded: r.uploaded ?? null,
    signature: r.signature ?? null,
    diagnostics: r.diagnostics,
  }).trimEnd();
}

function findings(r: { diagnostics: PushResult['diagnostics'] }, opts: OciRenderOptions): string[] {
  const shown = opts.quiet ? r.diagnostics.filter((d) => d.severity === 'error') : r.diagnostics;
  return shown.length > 0 ? [renderGrouped(shown, { style: opts.style })] : [];
}

export function renderPush(r: PushResult, opts: OciRenderOptions): string {
  const out = findings(r, opts);
  if (r.ok && r.reference !== undefined) {
    const sent = r.uploaded !== undefined && !r.uploaded.layer ? ' (layer already there)' : '';
    out.push(`${opts.style.green('✔')} pushed ${visible(r.reference)}${sent}`);
    if (r.signature !== undefined) out.push(`  signed by ${visible(r.signature.signer)}: ${r.signature.digest} (${r.signature.via === 'tag' ? 'referrers tag' : 'referrers API'})`);
  } else {
    out.push(`${opts.style.red('✖')} ${visible(opts.label)} was not pushed`);
  }
  return out.join('\n');
}

export function pullJson(r: PullResult, show: (path: string) => string): string {
  return renderJson({
    ok: r.ok,
    reference: r.reference ?? null,
    digest: r.digest ?? null,
    kind: r.kind ?? null,
    config: r.config ?? null,
    path: r.path !== undefined ? show(r.path) : null,
    outcome: r.outcome ?? null,
    from_cache: r.fromCache ?? false,
    signers: r.signers ?? null,
    diagnostics: r.diagnostics,
  }).trimEnd();
}

export function renderPull(r: PullResult, opts: OciRenderOptions): string {
  const out = findings(r, opts);
  const show = opts.show ?? ((p: string): string => p);
  if (r.ok && r.path !== undefined) {
    const what = r.outcome === 'unchanged' ? 'already holds' : 'pulled';
    out.push(`${opts.style.green('✔')} ${visible(show(r.path))} ${what} ${visible(r.reference ?? opts.label)}${r.fromCache === true ? ' (from the cache)' : ''}`);
    if (r.signers !== undefined) out.push(`  signed by ${visible(r.signers.join(', '))}`);
  } else {
    out.push(`${opts.style.red('✖')} ${visible(r.reference ?? opts.label)} was not pulled`);
  }
  return out.join('\n');
}
