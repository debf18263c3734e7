/** What `skillctl verify-pins` prints: the JSON document, or the failed pins' findings and a verdict. */
import { hasErrors, type Diagnostic } from '../../core/diagnostics.js';
import type { LockVerification } from '../../core/pins/index.js';
import type { Style } from '../context.js';
import { count, plural, renderGrouped } from './diagnostics.js';
import { renderJson } from './json.js';

export interface VerifyPinsRenderOptions {
  readonly json: boolean;
  readonly style: Style;
  readonly quiet: boolean;
  /** The lock as named in messages (`-` for stdin). */
  readonly lockFile: string;
  /** With --staged or --rev: `index`, or the id of the commit whose tree was verified. */
  readonly tree?: string;
}

/** The lock as named in verdicts: with the tree it was read from, when not the working tree. */
function lockLabel(opts: VerifyPinsRenderOptions): string {
  if (opts.tree === undefined) return opts.lockFile;
  return `${opts.lockFile} (${opts.tree === 'index' ? 'index' : `commit ${opts.tree.slice(0, 12)}`})`;
}

/** `tree` in the JSON document only with --staged or --rev: the working tree's document is unchanged. */
function treeField(opts: VerifyPinsRenderOptions): { tree?: string } {
  return opts.tree !== undefined ? { tree: opts.tree } : {};
}

/** A lock that cannot be read or checked at all: nothing was verified. */
export function renderUnverifiable(diagnostics: readonly Diagnostic[], opts: VerifyPinsRenderOptions): string {
  if (opts.json) return renderJson({ ok: false, lock: opts.lockFile, ...treeField(opts), format: null, skills: [], packs: [], unpinned: [], diagnostics }).trimEnd();
  return `${renderGrouped(diagnostics, { style: opts.style })}\n${opts.style.red('✖')} ${lockLabel(opts)} cannot be verified`;
}

function verificationJson(r: LockVerification, opts: VerifyPinsRenderOptions): unknown {
  return {
    ok: r.ok,
    lock: opts.lockFile,
    ...treeField(opts),
    format: r.format,
    skills: r.skills.map((s) => ({
      ...('skill_id' in s.pin ? { skill_id: s.pin.skill_id, skill_version: s.pin.skill_version, source: s.pin.source } : { id: s.pin.id, version: s.pin.version, bundle_dir: s.pin.bundle_dir }),
      ok: s.ok,
      digests: s.digests,
      signers: s.signers,
    })),
    packs: r.packs.map((p) => ({ profile: p.pin.profile, skill_pack_version: p.pin.skill_pack_version, source: p.pin.source, ok: p.ok, digests: p.digests })),
    unpinned: r.unpinned,
    diagnostics: r.diagnostics,
  };
}

/** Every pin's verdict; empty with --quiet when all passed. */
export function renderVerification(r: LockVerification, opts: VerifyPinsRenderOptions): string {
  if (opts.json) return renderJson(verificationJson(r, opts)).trimEnd();
  const { style } = opts;
  const lockFile = lockLabel(opts);
  const out: string[] = [];
  const shown = opts.quiet ? r.diagnostics.filter((d) => d.severity === 'error') : r.diagnostics;
  if (shown.length > 0) out.push(renderGrouped(shown, { style }));
  const pins = r.skills.length + r.packs.length;
  if (!hasErrors(r.diagnostics)) {
    if (!opts.quiet) out.push(`${style.green('✔')} ${plural(pins, 'pin')} verified (${plural(r.skills.length, 'skill')}, ${plural(r.packs.length, 'pack')}) in ${lockFile}`);
    return out.join('\n');
  }
  const failed = r.skills.filter((s) => !s.ok).length + r.packs.filter((s) => !s.ok).length;
  const parts = [`${failed} of ${plural(pins, 'pin')} failed`];
  if (r.unpinned.length > 0) parts.push(`${r.unpinned.length} unpinned`);
  out.push(`${style.red('✖')} ${lockFile}: ${parts.join(', ')}; ${plural(count(r.diagnostics).errors, 'error')}`);
  return out.join('\n');
}
