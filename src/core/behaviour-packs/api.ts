/**
 * `renderPack`: the library's one call for "give me the pack text for this profile and budget",
 * the same checks and bytes as `skillctl skill`.
 */
import { diag, sortDiagnostics, type Diagnostic, type Result } from '../diagnostics.js';
import { BUILTIN_PACKS } from './builtin.js';
import { checkPack } from './check.js';
import { DEFAULT_PROFILE, type Pack } from './model.js';
import type { RenderedPack } from './render.js';
import { renderRequest } from './request.js';
import { pushAll } from '../findings.js';

export interface RenderPackOptions {
  /**
   * Extra (operator) packs, for example from `loadPackDir`. Each is validated again; one that
   * is invalid or takes a built-in profile name makes the call fail.
   */
  readonly packs?: readonly Pack[];
}

/** Built-in packs plus `extra`, or the findings that stop them being offered. */
export function packCatalogue(extra: readonly Pack[] = []): Result<readonly Pack[]> {
  const all: Pack[] = [...BUILTIN_PACKS];
  const diagnostics: Diagnostic[] = [];
  extra.forEach((p, i) => {
    const checked = checkPack(p);
    pushAll(diagnostics, checked.diagnostics.map((d) => ({ ...d, pointer: `/packs/${i}${d.pointer ?? ''}` })));
    const pack = checked.value;
    if (pack === undefined) return;
    if (all.some((q) => q.profile === pack.profile)) {
      const builtin = BUILTIN_PACKS.some((q) => q.profile === pack.profile);
      diagnostics.push(
        builtin
          ? diag('PACK_PROFILE_RESERVED', `profile ${pack.profile} is built in; an extra pack cannot replace it`, { pointer: `/packs/${i}/profile` })
          : diag('PACK_PROFILE_DUPLICATE', `profile ${pack.profile} is given twice`, { pointer: `/packs/${i}/profile` }),
      );
      return;
    }
    all.push(pack);
  });
  if (diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics: sortDiagnostics(diagnostics) };
  return { ok: true, value: all.sort((a, b) => (a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0)), diagnostics };
}

/**
 * Renders the pack of `profile` (default `daily`) as BM-L1 text of at most `maxChars` Unicode code
 * points. `maxChars` is clamped to [PACK_MIN_CHARS, PACK_MAX_CHARS] (600..16000); leaving it out gives
 * the whole pack. Every budget keeps the identity line and the whole next loop (see fitLines).
 * Same build, profile and budget give the same text, byte for byte.
 *
 * An unknown profile or a `maxChars` that is not an integer is an INVALID_INPUT diagnostic, not an
 * exception: check `ok`.
 */
export function renderPack(profile: string = DEFAULT_PROFILE, maxChars?: number, options: RenderPackOptions = {}): Result<RenderedPack> {
  const catalogue = packCatalogue(options.packs);
  if (catalogue.value === undefined) return { ok: false, diagnostics: catalogue.diagnostics };
  return renderRequest(maxChars === undefined ? { profile } : { profile, max_chars: maxChars }, catalogue.value);
}
