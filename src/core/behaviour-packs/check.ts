/**
 * Validates pack data (already parsed, or built by a library user): the JSON Schema, then the
 * semantic rules. Needs no YAML parser, so it is cheap enough to run on every pack handed to
 * `renderPack`.
 */
import { hasErrors, type Diagnostic, type Result } from '../diagnostics.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { validate as validatePackSchema } from '../../generated/skill-pack-v1.validator.js';
import packSchema from '../../../schemas/skill.pack.v1.schema.json' with { type: 'json' };
import type { Pack } from './model.js';
import { PACK_RULES } from './rules.js';
import { pushAll } from '../findings.js';

const validator = validatePackSchema as StandaloneValidator;

export interface CheckPackOptions {
  /** The file name without its extension, when the pack came from a file (must equal the profile). */
  readonly stem?: string;
}

/** Schema and rule findings for `data`; `value` is the pack when there is no error. */
export function checkPack(data: unknown, opts: CheckPackOptions = {}): Result<Pack> {
  if (!validator(data)) {
    const diagnostics = schemaErrorsToDiagnostics(validator.errors ?? [], data, { schema: packSchema as Record<string, unknown> });
    return { ok: false, diagnostics };
  }
  // A copy holding only the model's fields: later changes to the caller's object cannot reach it.
  const d = data as Pack;
  const pack: Pack = {
    profile: d.profile,
    skill_pack_version: d.skill_pack_version,
    description: d.description,
    sections: d.sections.map((s) => ({ name: s.name, lines: [...s.lines] })),
  };
  const diagnostics: Diagnostic[] = [];
  for (const rule of PACK_RULES) pushAll(diagnostics, rule.check({ pack, ...(opts.stem !== undefined ? { stem: opts.stem } : {}) }));
  return hasErrors(diagnostics) ? { ok: false, diagnostics } : { ok: true, value: pack, diagnostics };
}
