/** What `skillctl pull skill://…` prints: the JSON document, or each skill written and the findings. */
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Placed } from '../../core/mcp-skills/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

export interface PullMcpOutcome {
  readonly ok: boolean;
  /** The server as the user named it. */
  readonly server: string;
  readonly placed: readonly Placed[];
  /** Files of each pulled skill, by URI. */
  readonly files: ReadonlyMap<string, number>;
  readonly diagnostics: readonly Diagnostic[];
}

export function pullMcpJson(r: PullMcpOutcome, show: (path: string) => string): string {
  return renderJson({
    ok: r.ok,
    server: r.server,
    skills: r.placed.map((p) => ({ name: p.name, uri: p.uri, dir: show(p.dir), files: r.files.get(p.uri) ?? 0, replaced: p.replaced })),
    diagnostics: r.diagnostics,
  }).trimEnd();
}

export function renderPullMcp(r: PullMcpOutcome, opts: { readonly style: Style; readonly quiet: boolean; readonly show: (path: string) => string }): string {
  const { style } = opts;
  const out: string[] = [];
  const shown = opts.quiet ? r.diagnostics.filter((d) => d.severity === 'error') : r.diagnostics;
  if (shown.length > 0) out.push(renderGrouped(shown, { style }));
  for (const p of r.placed) {
    const n = r.files.get(p.uri) ?? 0;
    // A server names its skills' URIs, and so the folders they go to.
    out.push(`${style.green('✔')} ${visible(p.uri)} -> ${visible(opts.show(p.dir))} (${n} file${n === 1 ? '' : 's'}${p.replaced ? ', replaced the earlier pull' : ''})`);
  }
  if (!r.ok) out.push(`${style.red('✖')} nothing was written`);
  else if (r.placed.length === 0) out.push(`${visible(r.server)} lists no skills`);
  return out.join('\n');
}
