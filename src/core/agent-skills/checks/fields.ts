import { diag, type Diagnostic } from '../../diagnostics.js';
import { childPointer } from '../../manifest/index.js';
import { closest } from '../../suggest.js';
import { CLAUDE_CODE_FIELDS, SPEC_FIELDS } from '../model.js';
import { isString, typeName, type Check } from './check.js';

const SPEC: ReadonlySet<string> = new Set(SPEC_FIELDS);
const EXTENSIONS: ReadonlySet<string> = new Set(CLAUDE_CODE_FIELDS);

/** Unknown and extension fields, required fields, and the type of license. */
export const fields: Check = {
  name: 'fields',
  check({ data }) {
    const out: Diagnostic[] = [];
    for (const key of Object.keys(data).sort()) {
      if (SPEC.has(key)) continue;
      const pointer = childPointer('', key);
      if (EXTENSIONS.has(key)) {
        out.push(
          diag('AGENT_SKILL_EXTENSION_FIELD', `${JSON.stringify(key)} is a Claude Code extension field, not part of the Agent Skills specification`, {
            pointer,
            hint: 'other clients and strict validators (skills-ref, Claude upload) reject it; move it under metadata if it must travel',
          }),
        );
        continue;
      }
      const near = closest(key, [...SPEC_FIELDS, ...CLAUDE_CODE_FIELDS]);
      out.push(
        diag('AGENT_SKILL_FIELD_UNKNOWN', `unexpected field ${JSON.stringify(key)} in frontmatter; only ${SPEC_FIELDS.join(', ')} are defined`, {
          pointer,
          hint: near !== undefined ? `did you mean ${near}?` : 'put custom properties under metadata as string values',
        }),
      );
    }
    for (const required of ['name', 'description'] as const) {
      if (!(required in data)) {
        out.push(
          diag('AGENT_SKILL_FIELD_MISSING', `missing required field in frontmatter: ${required}`, {
            pointer: '',
            hint: required === 'name' ? 'add name: <folder-name>' : 'add description: what the skill does and when to use it',
          }),
        );
      }
    }
    if ('license' in data && !isString(data.license)) {
      out.push(diag('AGENT_SKILL_FIELD_TYPE', `license must be a string, not ${typeName(data.license)}`, { pointer: '/license', hint: 'quote the value' }));
    }
    return out;
  },
};
