/** What `skillctl pack` prints: the JSON document, or each archive written with its digest. */
import type { PackResult } from '../../core/pack/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

export interface PackRenderOptions {
  readonly style: Style;
  readonly quiet: boolean;
  /** A path as the user should see it (relative to the working directory when below it). */
  readonly show: (path: string) => string;
  /** The folder as given. */
  readonly label: string;
}

export function packJson(r: PackResult, show: (path: string) => string): string {
  const skill = r.skillFile;
  return renderJson({
    ok: r.ok,
    kind: r.kind ?? null,
    archive: r.archive !== undefined ? show(r.archive) : null,
    digest: r.digest ?? null,
    size: r.size ?? null,
    files: r.files,
    skill_file: skill !== undefined ? { path: show(skill.path), digest: skill.digest, size: skill.size, entries: skill.entries, excluded: skill.excluded } : null,
    diagnostics: r.diagnostics,
  }).trimEnd();
}

export function renderPack(r: PackResult, opts: PackRenderOptions): string {
  const { style, show } = opts;
  const out: string[] = [];
  const visible = opts.quiet ? r.diagnostics.filter((d) => d.severity === 'error') : r.diagnostics;
  if (visible.length > 0) out.push(renderGrouped(visible, { style }));
  if (r.archive !== undefined) out.push(`${style.green('✔')} ${show(r.archive)} ${r.digest} (${r.size} bytes, ${r.files.length} files)`);
  const skill = r.skillFile;
  if (skill !== undefined) {
    const left = skill.excluded.length > 0 ? `, ${skill.excluded.length} left out` : '';
    out.push(`${style.green('✔')} ${show(skill.path)} ${skill.digest} (${skill.size} bytes, ${skill.entries.length} files${left})`);
  }
  if (!r.ok) out.push(`${style.red('✖')} ${opts.label} was not packed`);
  return out.join('\n');
}
