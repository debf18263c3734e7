import { diag, type Diagnostic } from '../../diagnostics.js';
import { bundlePath } from '../bundle.js';
import { LATEST } from '../model.js';
import type { Check } from './check.js';

const KNOWN = new Set(['capability_id', 'version', 'intent_triggers']);

function sameSet(a: readonly unknown[], b: readonly string[]): boolean {
  const x = new Set(a.map((v) => String(v).toLowerCase()));
  const y = new Set(b.map((v) => v.toLowerCase()));
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/**
 * skill.md may repeat capability.json's fields in YAML front matter (the bundle template does).
 * capability.json is the source of truth: a front matter that disagrees misleads whoever reads
 * the doc alone, so a different id is an error and different triggers a warning.
 */
export const skillDocFrontMatter: Check = {
  name: 'skill-doc-front-matter',
  check({ bundle }) {
    const fm = bundle.doc?.frontMatter;
    const data = fm?.document.data as Record<string, unknown> | undefined;
    if (fm === undefined || data === undefined) return [];
    const file = bundlePath(bundle.label, 'skill.md');
    const at = (key: string): { line: number; column: number } => {
      const p = fm.document.locate(`/${key}`, { key: true });
      return p === undefined ? { line: 1, column: 1 } : { line: p.line + 1, column: p.column };
    };
    const out: Diagnostic[] = [];
    for (const key of Object.keys(data)) {
      if (!KNOWN.has(key)) {
        out.push(diag('SKILL_DOC_FRONT_MATTER', `unknown front matter field \`${key}\``, { file, ...at(key), hint: `known fields: ${[...KNOWN].join(', ')}` }));
      }
    }
    const meta = bundle.meta;
    if ('capability_id' in data && meta !== undefined && data.capability_id !== meta.capability_id) {
      out.push(
        diag('CAPABILITY_ID_MISMATCH', `front matter capability_id ${JSON.stringify(data.capability_id)} is not ${JSON.stringify(meta.capability_id)} from capability.json`, {
          file,
          ...at('capability_id'),
        }),
      );
    }
    if ('version' in data && data.version !== LATEST) {
      out.push(
        diag('SKILL_DOC_FRONT_MATTER', `front matter version ${JSON.stringify(data.version)} is not "latest"`, {
          file,
          ...at('version'),
          hint: 'phase 1 of the protocol has one version per capability, "latest"; a breaking change is a new capability_id',
        }),
      );
    }
    if ('intent_triggers' in data) {
      const t = data.intent_triggers;
      if (!Array.isArray(t) || t.some((v) => typeof v !== 'string')) {
        out.push(diag('SKILL_DOC_FRONT_MATTER', 'front matter intent_triggers is not a list of strings', { file, ...at('intent_triggers') }));
      } else if (meta !== undefined && !sameSet(t, meta.intent_triggers)) {
        out.push(
          diag('CAPABILITY_TRIGGERS_MISMATCH', 'front matter intent_triggers differ from capability.json, whose list is the one matched', {
            file,
            ...at('intent_triggers'),
            hint: 'remove intent_triggers from the front matter, or copy capability.json\'s list',
          }),
        );
      }
    }
    return out;
  },
};
