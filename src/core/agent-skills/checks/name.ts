import { foldName } from '../../bundle/index.js';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { charLength, NAME_MAX_CHARS, RESERVED_NAME_WORDS, type NameCharset } from '../model.js';
import { isString, typeName, type Check } from './check.js';

const ASCII_NAME = /^[a-z0-9-]+$/;
// Python's str.isalnum(), which the reference validator uses: letters and numbers of any script.
const UNICODE_NAME = /^[\p{L}\p{N}-]+$/u;

/** The name as the reference compares it: surrounding spaces removed, NFKC-normalised. */
export function normalizeName(name: string): string {
  return name.trim().normalize('NFKC');
}

/**
 * The one spelling of every name an agent may take for the same skill: the name as the reference
 * reads it (normalizeName: `ｈｅｌｌｏ` is `hello`, a warning only), folded as a case-insensitive
 * or normalising file system folds a folder's name. Two skills are one name when their keys are.
 */
export function skillNameKey(name: string): string {
  return foldName(normalizeName(name));
}

/** Every rule on a `name` value: type, length, case, hyphens, characters, folder match, platform words. */
export function nameFindings(raw: unknown, nameCharset: NameCharset, dirName?: string): Diagnostic[] {
  const at = { pointer: '/name' };
  if (!isString(raw)) {
    return [diag('AGENT_SKILL_FIELD_TYPE', `name must be a string, not ${typeName(raw)}`, { ...at, hint: 'quote the value' })];
  }
  if (raw.trim() === '') return [diag('AGENT_SKILL_FIELD_EMPTY', 'name must be a non-empty string', { ...at, hint: 'use the folder name' })];
  const n = normalizeName(raw);
  const out: Diagnostic[] = [];
  if (n !== raw) {
    out.push(
      diag('AGENT_SKILL_NAME_NOT_NORMALIZED', `name ${JSON.stringify(raw)} is read as ${JSON.stringify(n)} after trimming and NFKC normalisation`, {
        ...at,
        hint: `write it as ${n}`,
      }),
    );
  }
  const len = charLength(n);
  if (len > NAME_MAX_CHARS) {
    out.push(diag('AGENT_SKILL_NAME_TOO_LONG', `skill name ${JSON.stringify(n)} exceeds the ${NAME_MAX_CHARS} character limit (${len} chars)`, at));
  }
  if (n !== n.toLowerCase()) {
    out.push(diag('AGENT_SKILL_NAME_UPPERCASE', `skill name ${JSON.stringify(n)} must be lowercase`, { ...at, hint: `use ${n.toLowerCase()}` }));
  }
  if (n.startsWith('-') || n.endsWith('-')) out.push(diag('AGENT_SKILL_NAME_HYPHEN_EDGE', 'skill name cannot start or end with a hyphen', at));
  if (n.includes('--')) out.push(diag('AGENT_SKILL_NAME_DOUBLE_HYPHEN', 'skill name cannot contain consecutive hyphens', at));
  // Case is reported once, above; the character set is checked on the lowercase form.
  const lower = n.toLowerCase();
  if (!(nameCharset === 'ascii' ? ASCII_NAME : UNICODE_NAME).test(lower)) {
    out.push(
      diag('AGENT_SKILL_NAME_CHARSET', `skill name ${JSON.stringify(n)} contains invalid characters`, {
        ...at,
        hint:
          nameCharset === 'ascii'
            ? 'use only a-z, 0-9 and -; --name-charset unicode also accepts letters and digits of any script, as skills-ref does'
            : 'use only letters, digits and -',
      }),
    );
  }
  if (dirName !== undefined && dirName.normalize('NFKC') !== n) {
    out.push(
      diag('AGENT_SKILL_NAME_DIR_MISMATCH', `directory name ${JSON.stringify(dirName)} must match skill name ${JSON.stringify(n)}`, {
        ...at,
        hint: nameFindings(dirName, nameCharset).some((f) => f.severity === 'error') ? `rename the folder to ${n}` : `rename the folder to ${n}, or set name: ${dirName}`,
      }),
    );
  }
  const reserved = RESERVED_NAME_WORDS.filter((w) => lower.includes(w));
  if (reserved.length > 0) {
    out.push(diag('AGENT_SKILL_NAME_RESERVED', `skill name contains the reserved word ${reserved.map((w) => JSON.stringify(w)).join(' and ')}`, {
      ...at,
      hint: "Claude's upload refuses names containing anthropic or claude",
    }));
  }
  if (/[<>]/.test(n)) out.push(diag('AGENT_SKILL_ANGLE_BRACKETS', 'skill name contains < or >', at));
  return out;
}

export const name: Check = {
  name: 'name',
  check({ data, dirName, nameCharset }) {
    return 'name' in data ? nameFindings(data.name, nameCharset, dirName) : [];
  },
};
