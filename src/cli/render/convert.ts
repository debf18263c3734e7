/** What `skillctl convert` prints: the JSON document, or the file written and its entrypoints. */
import type { Converted } from '../../core/agent-skills/index.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { renderJson } from './json.js';

function shape(c: Converted): Record<string, unknown> {
  if (c.format === 'skill-md') {
    return { written: c.written, format: c.format, name: c.name, manifest: c.manifest, manifest_digest: c.manifest_digest, content_digest: c.content_digest };
  }
  const { written, format, skill_id, skill_version, manifest_digest, content_digest, entrypoints } = c;
  return { written, format, skill_id, skill_version, manifest_digest, content_digest, entrypoints };
}

export function convertJson(converted: Converted | undefined, diagnostics: readonly Diagnostic[]): string {
  return renderJson({ ...(converted !== undefined ? shape(converted) : { written: null }), diagnostics }).trimEnd();
}

/** The line saying what was written (and, for a manifest, one line per entrypoint). */
export function renderConverted(c: Converted): string {
  if (c.format === 'skill-md') return `wrote ${c.written} (name ${c.name}); updated the digests in ${c.manifest}`;
  const n = c.entrypoints.length;
  const lines = c.entrypoints.map((e) => `  ${e.entrypoint_id}: ${e.command.join(' ')} (${e.runtime} ${e.runtime_version})`);
  return [`wrote ${c.written}: ${n} entrypoint${n === 1 ? '' : 's'}, no permissions (request what the scripts need)`, ...lines].join('\n');
}
