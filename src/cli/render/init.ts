/** What `skillctl init` prints: the JSON document, or what was created and what to do next. */
import type { Diagnostic } from '../../core/diagnostics.js';
import type { ScaffoldSpec } from '../../core/scaffold/index.js';
import type { Style } from '../context.js';
import { renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

/** A skill that was not created: its findings (with --json, the document saying nothing was). */
export function renderNotCreated(diagnostics: readonly Diagnostic[], opts: { readonly json: boolean; readonly style: Style }): string {
  return opts.json ? renderJson({ created: null, diagnostics }).trimEnd() : renderGrouped(diagnostics, { style: opts.style });
}

export function initJson(label: string, spec: ScaffoldSpec, files: readonly string[], diagnostics: readonly Diagnostic[]): string {
  return renderJson({
    created: label,
    format: spec.format,
    id: spec.id,
    runtime: spec.runtime,
    runtime_version: spec.runtimeVersion ?? null,
    files,
    diagnostics,
  }).trimEnd();
}

/** The lines saying what was created and the next step. */
export function renderCreated(label: string, spec: ScaffoldSpec, files: readonly string[]): string {
  return [
    `created ${label}/ (${spec.format === 'manifest' ? 'skill.yaml bundle' : 'Agent Skills folder'}): ${files.join(', ')}`,
    spec.format === 'manifest'
      ? `next: edit it; after changing any file run skillctl validate --fix ${label} to update the digests`
      : `next: write the instructions in ${label}/SKILL.md, then run skillctl validate ${label}`,
  ].join('\n');
}
