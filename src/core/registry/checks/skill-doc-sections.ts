import { diag, type Diagnostic } from '../../diagnostics.js';
import { bundlePath } from '../bundle.js';
import type { Check } from './check.js';

/**
 * The sections every skill.md has (the bundle format's template): the agent reads them to decide
 * when to use the capability, how to behave by default, which tools and UI exist, and examples.
 * Each required section is listed with the headings accepted for it (compared after sectionKey).
 */
export const REQUIRED_SECTIONS: readonly { readonly name: string; readonly keys: readonly string[] }[] = [
  { name: 'When to use', keys: ['when to use'] },
  { name: 'Default behavior', keys: ['default behavior', 'default behaviour'] },
  { name: 'Tools', keys: ['tools'] },
  { name: 'UI', keys: ['ui'] },
  { name: 'Examples', keys: ['examples'] },
];

export const skillDocSections: Check = {
  name: 'skill-doc-sections',
  check({ bundle }) {
    const doc = bundle.doc;
    if (doc === undefined) return [];
    const file = bundlePath(bundle.label, 'skill.md');
    const out: Diagnostic[] = [];
    if (doc.title === undefined) {
      out.push(diag('SKILL_DOC_SECTION_MISSING', 'skill.md has no title (a # heading)', { file, line: 1, column: 1, hint: 'start with a heading such as # Weights skill' }));
    }
    for (const req of REQUIRED_SECTIONS) {
      const found = doc.sections.filter((s) => req.keys.includes(s.key));
      if (found.length === 0) {
        out.push(
          diag('SKILL_DOC_SECTION_MISSING', `skill.md has no "## ${req.name}" section`, {
            file,
            line: 1,
            column: 1,
            hint: `required sections: ${REQUIRED_SECTIONS.map((r) => r.name).join(', ')}`,
          }),
        );
      }
      for (const dup of found.slice(1)) {
        out.push(
          diag('SKILL_DOC_SECTION_DUPLICATE', `"## ${dup.heading}" repeats the section on line ${(found[0] as { line: number }).line}`, {
            file,
            line: dup.line,
            column: 1,
            hint: 'merge the two sections; an agent may read only one of them',
          }),
        );
      }
    }
    return out;
  },
};
