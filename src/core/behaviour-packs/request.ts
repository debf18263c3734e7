/**
 * The `skill` request of seed 000: `{"profile": "daily", "max_chars": 2000}`, both optional. Every
 * problem is an INVALID_INPUT diagnostic whose message names the field and what is allowed; all
 * problems are reported, not only the first.
 */
import type { Diagnostic, Result } from '../diagnostics.js';
import { closest } from '../suggest.js';
import { PACK_CODES } from './codes.js';
import { DEFAULT_PROFILE, PACK_MAX_CHARS, PACK_MIN_CHARS, type Pack } from './model.js';
import { renderPackText, type RenderedPack } from './render.js';

export interface PackRequest {
  readonly profile: string;
  /** Absent: the full pack. Any integer is accepted and clamped (see clampBudget). */
  readonly max_chars?: number;
}

const FIELDS = ['profile', 'max_chars'] as const;

/**
 * `diag` for this module's two codes. This module is on the start-up path of `skillctl skill`
 * (src/entry/skill-fast.ts), and `diag` would pull in the whole code catalogue of every command.
 */
function diag(code: 'INVALID_INPUT' | 'PACK_BUDGET_CLAMPED', message: string, extra: { pointer: string; hint?: string }): Diagnostic {
  return { code, severity: PACK_CODES[code].severity, message, pointer: extra.pointer, ...(extra.hint !== undefined ? { hint: extra.hint } : {}) };
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isFinite(v) ? `the number ${v}` : String(v);
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Checks a request against the profiles on offer. `null` counts as absent for both fields (JSON
 * writers often emit it for an unset option).
 */
export function checkPackRequest(input: unknown, profiles: readonly string[]): Result<PackRequest> {
  const allowed = profiles.join(', ');
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return {
      ok: false,
      diagnostics: [
        diag('INVALID_INPUT', `the request must be a JSON object with the optional fields profile and max_chars, not ${kind(input)}`, {
          pointer: '',
          hint: `for example {"profile": "${DEFAULT_PROFILE}", "max_chars": 2000}; profile is one of ${allowed}`,
        }),
      ],
    };
  }
  const req = input as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];
  for (const key of Object.keys(req).sort()) {
    if ((FIELDS as readonly string[]).includes(key)) continue;
    const guess = closest(key, FIELDS);
    diagnostics.push(
      diag('INVALID_INPUT', `unknown field \`${key}\`; allowed fields: ${FIELDS.join(', ')}`, {
        pointer: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        ...(guess !== undefined ? { hint: `did you mean \`${guess}\`?` } : {}),
      }),
    );
  }
  const max = req.max_chars;
  if (max !== undefined && max !== null && !(typeof max === 'number' && Number.isInteger(max))) {
    diagnostics.push(
      diag('INVALID_INPUT', `\`max_chars\` must be an integer (a budget in characters), not ${kind(max)}`, {
        pointer: '/max_chars',
        hint: `any integer is accepted and clamped to ${PACK_MIN_CHARS}..${PACK_MAX_CHARS}; leave it out for the whole pack`,
      }),
    );
  }
  const profile = req.profile ?? DEFAULT_PROFILE;
  if (typeof profile !== 'string' || !profiles.includes(profile)) {
    const guess = typeof profile === 'string' ? closest(profile, profiles) : undefined;
    diagnostics.push(
      diag('INVALID_INPUT', `\`profile\` is ${kind(profile)}; allowed values: ${allowed}`, {
        pointer: '/profile',
        hint: guess !== undefined ? `did you mean \`${guess}\`?` : `leave it out for ${DEFAULT_PROFILE}`,
      }),
    );
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const value: PackRequest = typeof max === 'number' ? { profile: profile as string, max_chars: max } : { profile: profile as string };
  return { ok: true, value, diagnostics: [] };
}

/**
 * Checks a request against `packs` and renders the pack it names: the one path from a request to
 * text, shared by `renderPack`, the `skill` command and its fast path. A clamped budget is a
 * PACK_BUDGET_CLAMPED warning; the result is still `ok`.
 */
export function renderRequest(input: unknown, packs: readonly Pack[]): Result<RenderedPack> {
  const request = checkPackRequest(
    input,
    packs.map((p) => p.profile),
  );
  const pack = packs.find((p) => p.profile === request.value?.profile);
  if (request.value === undefined || pack === undefined) return { ok: false, diagnostics: request.diagnostics };
  const value = renderPackText(pack, request.value.max_chars);
  const diagnostics = value.clamped
    ? [
        diag('PACK_BUDGET_CLAMPED', `max_chars ${String(value.max_chars_requested)} is outside ${PACK_MIN_CHARS}..${PACK_MAX_CHARS}; the budget used is ${value.max_chars}`, {
          pointer: '/max_chars',
        }),
      ]
    : [];
  return { ok: true, value, diagnostics };
}
