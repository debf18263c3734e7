/**
 * Operator packs (`--packs DIR`) for `skill` and `mcp`: every file validated, and the catalogue
 * they make with the built-in packs checked as a whole (no profile offered twice). Loaded on
 * demand: it brings the YAML parser.
 */
import { isAbsolute, join } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Pack } from '../core/behaviour-packs/index.js';
import type { Context } from './context.js';

export type OperatorPacks =
  /** `extra`: the operator's packs; `catalogue`: the built-in packs and those. */
  | { readonly extra: readonly Pack[]; readonly catalogue: readonly Pack[]; readonly diagnostics: readonly Diagnostic[] }
  | { readonly diagnostics: readonly Diagnostic[] };

export async function loadOperatorPacks(ctx: Context, dir: string): Promise<OperatorPacks> {
  const { loadPackDir, packCatalogue } = await import('../core/behaviour-packs/index.js');
  const loaded = await loadPackDir(isAbsolute(dir) ? dir : join(ctx.io.cwd, dir), { label: dir });
  const extra = loaded.value?.map((l) => l.pack);
  const catalogue = packCatalogue(extra);
  if (extra === undefined || catalogue.value === undefined) return { diagnostics: [...loaded.diagnostics, ...catalogue.diagnostics] };
  return { extra, catalogue: catalogue.value, diagnostics: [...loaded.diagnostics, ...catalogue.diagnostics] };
}
