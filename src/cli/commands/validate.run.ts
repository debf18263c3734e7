import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { diag, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { errnoCode } from '../../core/errors.js';
import { mapLimited } from '../../core/map-limited.js';
import { writeFileAtomic } from '../../core/fs/index.js';
import {
  fixDigests,
  formatOf,
  MANIFEST_MAX_BYTES,
  unreadable,
  validateBundle,
  validateManifest,
  type ManifestValidation,
} from '../../core/manifest/index.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit.js';
import { expandInputs, type Target } from '../inputs.js';
import { readStdin } from '../io.js';
import { count, plural, renderGrouped } from '../render/diagnostics.js';
import { renderJson } from '../render/json.js';
import { renderSarif } from '../render/sarif.js';

import type { ValidateOptions } from './validate.js';

/** Work in flight at once: enough to overlap file I/O, bounded so fds stay few. */
const CONCURRENCY = 16;

async function validateTarget(ctx: Context, t: Target): Promise<ManifestValidation> {
  if (t.kind === 'bundle') return validateBundle(isAbsolute(t.dir) ? t.dir : join(ctx.io.cwd, t.dir), t.dir);
  if (t.kind === 'stdin') {
    const bytes = await readStdin(ctx.io, MANIFEST_MAX_BYTES);
    if (bytes === undefined) {
      return unreadable('-', diag('MANIFEST_TOO_LARGE', `stdin exceeds the ${MANIFEST_MAX_BYTES}-byte bound for a manifest`), 'yaml');
    }
    const format = /^\s*\{/.test(bytes.subarray(0, 64).toString('utf8')) ? 'json' : 'yaml';
    return validateManifest(bytes, format, { file: '-' });
  }
  try {
    const bytes = await readFile(isAbsolute(t.file) ? t.file : join(ctx.io.cwd, t.file));
    return validateManifest(bytes, formatOf(t.file), { file: t.file });
  } catch (err) {
    return unreadable(t.file, diag('INPUT_UNREADABLE', `cannot read ${t.file}: ${errnoCode(err) ?? String(err)}`));
  }
}

function resultJson(r: ManifestValidation): Record<string, unknown> {
  return {
    file: r.file,
    ...(r.bundle !== undefined ? { bundle: r.bundle } : {}),
    skill_id: r.skill_id ?? null,
    skill_version: r.skill_version ?? null,
    valid: r.valid,
    metadata: r.metadata,
    loader_error: r.loader_error ?? null,
    digests: {
      manifest_digest: { declared: r.digests.manifest.declared ?? null, computed: r.digests.manifest.computed ?? null },
      content_digest: { declared: r.digests.content.declared ?? null, computed: r.digests.content.computed ?? null },
    },
    diagnostics: r.diagnostics,
  };
}

async function applyFixes(ctx: Context, results: ManifestValidation[]): Promise<{ results: ManifestValidation[]; extra: Diagnostic[] }> {
  const extra: Diagnostic[] = [];
  const out: ManifestValidation[] = [];
  for (const r of results) {
    if (r.file === '-' || r.document.data === undefined) {
      out.push(r);
      continue;
    }
    const fix = fixDigests(r);
    if (fix.text === undefined) {
      if (fix.reason !== undefined) extra.push(diag('INPUT_UNREADABLE', `not fixed: ${fix.reason}`, { file: r.file, severity: 'warning' }));
      out.push(r);
      continue;
    }
    const abs = isAbsolute(r.file) ? r.file : join(ctx.io.cwd, r.file);
    await writeFileAtomic(abs, fix.text);
    ctx.note(`fixed ${fix.changed.join(' and ')} in ${r.file}`);
    // Re-validate what is now on disk, so the report describes the fixed file.
    out.push(r.bundle !== undefined ? await validateBundle(isAbsolute(r.bundle) ? r.bundle : join(ctx.io.cwd, r.bundle), r.bundle) : r);
  }
  return { results: out, extra };
}

export async function run(ctx: Context, args: readonly string[], opts: ValidateOptions): Promise<number> {
  const expanded = await expandInputs(ctx.io.cwd, args.length === 0 ? ['.'] : args);
  let results = await mapLimited(expanded.targets, CONCURRENCY, (t) => validateTarget(ctx, t));
  let extra: Diagnostic[] = [];
  if (opts.fix === true) ({ results, extra } = await applyFixes(ctx, results));
  const inputErrors = [...expanded.diagnostics, ...extra];
  const all = sortDiagnostics([...inputErrors, ...results.flatMap((r) => r.diagnostics)]);
  const code = exitCodeFor(all);
  const format = ctx.opts.json ? 'json' : (opts.format ?? 'human');
  if (format === 'json') {
    const doc = results.map(resultJson);
    if (inputErrors.length > 0) doc.push({ file: null, valid: false, diagnostics: inputErrors });
    ctx.out(renderJson(doc).trimEnd());
  } else if (format === 'sarif') {
    ctx.out(renderSarif(all, ctx.io.cwd).trimEnd());
  } else {
    const shown = ctx.opts.quiet ? all.filter((d) => d.severity === 'error') : all;
    if (shown.length > 0) ctx.out(renderGrouped(shown, { style: ctx.style }));
    const c = count(all);
    const bad = results.filter((r) => !r.valid).length;
    const summary = `${plural(results.length, 'manifest')} checked: ${bad === 0 ? 'all valid' : `${bad} invalid`}; ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`;
    if (!ctx.opts.quiet || code !== 0) ctx.out((code === 0 ? ctx.style.green('✔ ') : ctx.style.red('✖ ')) + summary);
  }
  return code;
}

