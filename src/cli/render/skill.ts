import type { RenderedPack } from '../../core/behaviour-packs/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Style } from '../context.js';
import { renderJson } from './json.js';
import { visible } from '../../core/visible.js';

/**
 * What `skillctl skill` prints on success: the pack text exactly (no trailing newline: it would be
 * one character over the budget), or with --json the line-protocol envelope, keys sorted. Shared by
 * the full command and its fast path, so the two cannot drift.
 */
export function renderPackOutput(r: RenderedPack, json: boolean): string {
  if (!json) return r.text;
  return renderJson({
    clamped: r.clamped,
    line_protocol: true,
    max_chars: r.max_chars,
    max_chars_requested: r.max_chars_requested,
    profile: r.profile,
    skill_pack_version: r.skill_pack_version,
    text: r.text,
    truncated: r.truncated,
  });
}

/** The warnings of a request that was served anyway (a clamped budget), one line each, for stderr. */
export function renderPackWarnings(diagnostics: readonly Diagnostic[], style: Style): string {
  return diagnostics.map((w) => `${style.yellow(w.severity)} ${w.code}: ${visible(w.message)}`).join('\n');
}
