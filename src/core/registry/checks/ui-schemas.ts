import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { checkUiDefinition } from '../a2ui/index.js';
import { bundlePath } from '../bundle.js';
import type { Check } from './check.js';

/** How a UI schema id looks, and so how skill.md's backticked references to one are recognised. */
export const SCHEMA_ID = /^[A-Z][A-Za-z0-9]*\.v[1-9][0-9]*$/;

/**
 * "UI schema refs are correct": every schema_id is unique; every reference to one (a backticked
 * `Name.vN` anywhere in skill.md, or a tool's ui_schemas) names a defined schema; every schema is
 * used; every definition is valid in its dialect.
 */
export const uiSchemas: Check = {
  name: 'ui-schemas',
  check({ bundle }) {
    const uiFile = bundlePath(bundle.label, 'ui_schemas.json');
    const out: Diagnostic[] = [];
    const defined = new Map<string, string>();
    for (const { value: s, pointer } of bundle.uiSchemas) {
      const prev = defined.get(s.schema_id);
      if (prev !== undefined) out.push(diag('UI_SCHEMA_DUPLICATE', `schema_id ${s.schema_id} is defined twice (also at ${prev})`, { file: uiFile, pointer: `${pointer}/schema_id` }));
      else defined.set(s.schema_id, pointer);
    }
    const used = new Set<string>();
    const declared = bundle.declared.uiSchemas;
    const unknown = (id: string): string | undefined => {
      used.add(id);
      // Without a usable ui_schemas.json (reported on its own) references cannot be judged.
      if (declared === undefined || declared.has(id)) return undefined;
      const guess = closest(id, declared);
      return guess !== undefined ? `did you mean ${guess}?` : 'define it in ui_schemas.json';
    };
    for (const span of bundle.doc?.codeSpans ?? []) {
      if (!SCHEMA_ID.test(span.text)) continue;
      const hint = unknown(span.text);
      if (hint !== undefined) {
        out.push(diag('UI_SCHEMA_UNKNOWN', `skill.md references UI schema ${span.text}, which ui_schemas.json does not define`, { file: bundlePath(bundle.label, 'skill.md'), line: span.line, column: span.column, hint }));
      }
    }
    for (const { value: tool, pointer } of bundle.tools) {
      (tool.ui_schemas ?? []).forEach((id, i) => {
        const hint = unknown(id);
        if (hint !== undefined) {
          out.push(diag('UI_SCHEMA_UNKNOWN', `tool \`${tool.name}\` references UI schema ${id}, which ui_schemas.json does not define`, { file: bundlePath(bundle.label, 'tools.json'), pointer: `${pointer}/ui_schemas/${i}`, hint }));
        }
      });
    }
    const toolNames = new Set(bundle.tools.map((t) => t.value.name));
    for (const { value: s, pointer } of bundle.uiSchemas) {
      if (!used.has(s.schema_id)) {
        out.push(diag('UI_SCHEMA_UNUSED', `UI schema ${s.schema_id} is referenced neither by skill.md nor by a tool`, { file: uiFile, pointer: `${pointer}/schema_id`, hint: `mention \`${s.schema_id}\` under ## UI in skill.md` }));
      }
      for (const d of checkUiDefinition(s.dialect, s.definition, `${pointer}/definition`, toolNames)) out.push({ ...d, file: uiFile });
    }
    return out;
  },
};
