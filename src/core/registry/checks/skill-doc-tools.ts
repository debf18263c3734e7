import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { bundlePath } from '../bundle.js';
import { codeSpansOf, listItems } from '../skill-doc.js';
import type { Check } from './check.js';

/**
 * skill.md's Tools section lists the tools, one list item each, starting with the tool name in
 * backticks. A name that tools.json lacks is a dangling reference the agent would call in vain;
 * a tool the section omits is one the agent is never told about.
 */
export const skillDocTools: Check = {
  name: 'skill-doc-tools',
  check({ bundle }) {
    const doc = bundle.doc;
    const section = doc?.sections.find((s) => s.key === 'tools');
    const defined = bundle.declared.tools;
    // Without a usable tools.json (reported on its own) references into it cannot be judged.
    if (section === undefined || defined === undefined) return [];
    const file = bundlePath(bundle.label, 'skill.md');
    const listed = new Set<string>();
    const out: Diagnostic[] = [];
    for (const item of listItems(section.body)) {
      const lead = item.text.replace(/^[*_]+/, '');
      if (!lead.startsWith('`')) continue;
      const span = codeSpansOf(lead, item.line)[0];
      if (span === undefined) continue;
      listed.add(span.text);
      if (!defined.has(span.text)) {
        const guess = closest(span.text, defined);
        out.push(
          diag('SKILL_DOC_TOOL_UNKNOWN', `the Tools section names \`${span.text}\`, which tools.json does not define`, {
            file,
            line: item.line,
            hint: guess !== undefined ? `did you mean \`${guess}\`?` : 'define the tool in tools.json or remove the item',
          }),
        );
      }
    }
    for (const t of bundle.tools) {
      if (!listed.has(t.value.name)) {
        out.push(
          diag('SKILL_DOC_TOOL_UNLISTED', `tool \`${t.value.name}\` is not listed in skill.md's Tools section`, {
            file: bundlePath(bundle.label, 'tools.json'),
            pointer: `${t.pointer}/name`,
            hint: `add "- \`${t.value.name}\`: <when to call it>" under ## Tools`,
          }),
        );
      }
    }
    return out;
  },
};
