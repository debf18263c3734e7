import { diag, type Diagnostic } from '../../diagnostics.js';
import { charLength, COMPATIBILITY_MAX_CHARS, DESCRIPTION_MAX_CHARS } from '../model.js';
import { isString, typeName, type Check } from './check.js';

/** description (required, 1-1024 characters, no XML on upload) and compatibility (1-500 if present). */
export const description: Check = {
  name: 'description',
  check({ data }) {
    const out: Diagnostic[] = [];
    if ('description' in data) {
      const d = data.description;
      const at = { pointer: '/description' };
      if (!isString(d)) out.push(diag('AGENT_SKILL_FIELD_TYPE', `description must be a string, not ${typeName(d)}`, { ...at, hint: 'quote the value' }));
      else if (d.trim() === '') {
        out.push(diag('AGENT_SKILL_FIELD_EMPTY', 'description must be a non-empty string', { ...at, hint: 'say what the skill does and when to use it' }));
      } else {
        // Measured on the value as written, not trimmed, as the reference does.
        const len = charLength(d);
        if (len > DESCRIPTION_MAX_CHARS) {
          out.push(
            diag('AGENT_SKILL_DESCRIPTION_TOO_LONG', `description exceeds the ${DESCRIPTION_MAX_CHARS} character limit (${len} chars)`, {
              ...at,
              hint: 'keep the trigger summary short; move details into the body',
            }),
          );
        }
        if (/[<>]/.test(d)) {
          out.push(diag('AGENT_SKILL_ANGLE_BRACKETS', 'description contains < or >', { ...at, hint: 'write "less than" or use other punctuation; uploads refuse XML tags here' }));
        }
      }
    }
    if ('compatibility' in data) {
      const c = data.compatibility;
      const at = { pointer: '/compatibility' };
      if (!isString(c)) out.push(diag('AGENT_SKILL_FIELD_TYPE', `compatibility must be a string, not ${typeName(c)}`, { ...at, hint: 'quote the value' }));
      else if (c === '') {
        out.push(diag('AGENT_SKILL_FIELD_EMPTY', 'compatibility must be 1-500 characters when present', { ...at, hint: 'remove the field, or describe what the skill needs' }));
      } else if (charLength(c) > COMPATIBILITY_MAX_CHARS) {
        out.push(diag('AGENT_SKILL_COMPATIBILITY_TOO_LONG', `compatibility exceeds the ${COMPATIBILITY_MAX_CHARS} character limit (${charLength(c)} chars)`, at));
      }
    }
    return out;
  },
};
