/**
 * SEP-2640 "Integrity and verification": after fetching SKILL.md, the host parses its frontmatter
 * and compares it field by field with the entry's; any difference fails the skill, so what a user
 * approved from the listing is what the model receives. Equality is exact: same keys, same types,
 * same values, at every depth (key order aside, which JSON objects do not carry).
 */
import { diag, type Diagnostic } from '../diagnostics.js';

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && same((a as Record<string, unknown>)[k], rb[k]));
}

/** One finding per top-level field that differs, is missing from one side, or is added. */
export function compareFrontmatter(fromEntry: Readonly<Record<string, unknown>>, fromFile: Readonly<Record<string, unknown>>, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const keys = [...new Set([...Object.keys(fromEntry), ...Object.keys(fromFile)])].sort();
  for (const k of keys) {
    const inEntry = Object.hasOwn(fromEntry, k);
    const inFile = Object.hasOwn(fromFile, k);
    if (inEntry && inFile && same(fromEntry[k], fromFile[k])) continue;
    const what = !inFile ? 'is in the entry but not in SKILL.md' : !inEntry ? 'is in SKILL.md but not in the entry' : 'differs between the entry and SKILL.md';
    out.push(diag('MCP_PULL_FRONTMATTER_MISMATCH', `frontmatter field ${JSON.stringify(k)} ${what}`, { file, pointer: `/frontmatter/${escape(k)}` }));
  }
  return out;
}
