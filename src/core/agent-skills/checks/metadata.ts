import { diag, type Diagnostic } from '../../diagnostics.js';
import { childPointer } from '../../manifest/index.js';
import { typeName, type Check } from './check.js';

/** metadata: "a map from string keys to string values". */
export const metadata: Check = {
  name: 'metadata',
  check({ data, doc }) {
    if (!('metadata' in data)) return [];
    const m = data.metadata;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      return [
        diag('AGENT_SKILL_METADATA_INVALID', `metadata must be a mapping of string keys to string values, not ${typeName(m)}`, {
          pointer: '/metadata',
          hint: 'write it as indented key: "value" lines',
        }),
      ];
    }
    const out: Diagnostic[] = [];
    for (const [key, value] of Object.entries(m as Record<string, unknown>)) {
      const pointer = childPointer('/metadata', key);
      if (typeof value === 'string') continue;
      if (value !== null && typeof value === 'object') {
        out.push(
          diag('AGENT_SKILL_METADATA_INVALID', `metadata.${key} is ${typeName(value)}; values must be strings`, {
            pointer,
            hint: 'flatten it into separate keys, or write it as one string',
          }),
        );
        continue;
      }
      const source = doc.sourceOf(pointer) ?? String(value);
      out.push(
        diag('AGENT_SKILL_METADATA_NOT_STRING', `metadata.${key} is the unquoted ${typeName(value).replace(/^an? /, '')} ${source}; some readers see a string, others a ${typeName(value).replace(/^an? /, '')}`, {
          pointer,
          hint: `quote it: ${key}: ${JSON.stringify(source)}`,
        }),
      );
    }
    return out;
  },
};
