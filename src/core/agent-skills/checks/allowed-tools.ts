import { diag, type Diagnostic } from '../../diagnostics.js';
import { typeName, type Check } from './check.js';

/** Splits on whitespace outside parentheses: `Bash(git add:*) Read` is two tools. */
export function splitTools(value: string): { tools: string[]; balanced: boolean } {
  const tools: string[] = [];
  let depth = 0;
  let cur = '';
  let balanced = true;
  for (const c of value) {
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) {
        balanced = false;
        depth = 0;
      }
    }
    if (/\s/.test(c) && depth === 0) {
      if (cur !== '') tools.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur !== '') tools.push(cur);
  return { tools, balanced: balanced && depth === 0 };
}

function checkString(value: string, pointer: string, out: Diagnostic[]): void {
  const { tools, balanced } = splitTools(value);
  if (tools.length === 0) {
    out.push(diag('AGENT_SKILL_ALLOWED_TOOLS_INVALID', 'allowed-tools is empty', { pointer, hint: 'remove the field, or list tools such as Read Bash(git:*)' }));
  } else if (!balanced) {
    out.push(diag('AGENT_SKILL_ALLOWED_TOOLS_INVALID', `allowed-tools ${JSON.stringify(value)} has unbalanced parentheses`, { pointer }));
  }
  if (tools.some((t) => t.endsWith(',') || t.startsWith(','))) {
    out.push(
      diag('AGENT_SKILL_ALLOWED_TOOLS_COMMAS', 'allowed-tools separates tools with commas', {
        pointer,
        hint: `separate with spaces: ${tools.map((t) => t.replace(/^,+|,+$/g, '')).filter((t) => t !== '').join(' ')}`,
      }),
    );
  }
}

/** allowed-tools (experimental): a space-separated string; some clients also read a YAML list. */
export const allowedTools: Check = {
  name: 'allowed-tools',
  check({ data }) {
    if (!('allowed-tools' in data)) return [];
    const v = data['allowed-tools'];
    const pointer = '/allowed-tools';
    const out: Diagnostic[] = [];
    if (typeof v === 'string') {
      checkString(v, pointer, out);
    } else if (Array.isArray(v)) {
      const strings = v.filter((t): t is string => typeof t === 'string');
      out.push(
        diag('AGENT_SKILL_ALLOWED_TOOLS_LIST', 'allowed-tools is a YAML list; the specification defines a space-separated string', {
          pointer,
          hint: `write allowed-tools: ${strings.join(' ')}`,
        }),
      );
      v.forEach((t, i) => {
        if (typeof t !== 'string') {
          out.push(diag('AGENT_SKILL_FIELD_TYPE', `allowed-tools list items must all be strings; item ${i} is ${typeName(t)}`, { pointer: `${pointer}/${i}` }));
        } else checkString(t, `${pointer}/${i}`, out);
      });
    } else {
      out.push(
        diag('AGENT_SKILL_FIELD_TYPE', `allowed-tools must be a space-separated string, not ${typeName(v)}`, {
          pointer,
          hint: 'write the tool names separated by spaces, e.g. Read Bash(git:*)',
        }),
      );
    }
    return out;
  },
};
