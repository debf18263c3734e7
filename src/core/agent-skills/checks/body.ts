import { posix } from 'node:path';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { foldersOf } from '../../digest/index.js';
import { BODY_MAX_LINES, BODY_MAX_TOKENS } from '../model.js';
import type { Check } from './check.js';

/** A rough token count: about four characters per token for English prose and code. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The specification's size guidance for the instructions loaded on activation. */
export const bodySize: Check = {
  name: 'body-size',
  check({ doc }) {
    const out: Diagnostic[] = [];
    const lines = doc.body.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length > BODY_MAX_LINES) {
      out.push(
        diag('AGENT_SKILL_BODY_LINES', `the body is ${lines.length} lines; the specification recommends under ${BODY_MAX_LINES}`, {
          line: doc.bodyLine + BODY_MAX_LINES,
          column: 1,
          hint: 'move detail into references/ files that the body links to; agents load them on demand',
        }),
      );
    }
    const tokens = estimateTokens(doc.body);
    if (tokens > BODY_MAX_TOKENS) {
      out.push(
        diag('AGENT_SKILL_BODY_TOKENS', `the body is about ${tokens} tokens; the specification recommends under ${BODY_MAX_TOKENS}`, {
          line: doc.bodyLine,
          column: 1,
          hint: 'move detail into references/ files that the body links to',
        }),
      );
    }
    return out;
  },
};

const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Relative Markdown links of the body, with their 1-based line, outside code. */
export function relativeLinks(body: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence: string | undefined;
  body.split('\n').forEach((raw, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (f) {
      const mark = (f[1] as string)[0] as string;
      if (fence === undefined) fence = mark;
      else if (fence === mark) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(LINK)) {
      const target = m[1] as string;
      if (SCHEME.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      out.push({ target, line: i });
    }
  });
  return out;
}

/** Links to files of the skill that are not there: the agent would follow them and fail. */
export const links: Check = {
  name: 'links',
  check({ doc, files }) {
    if (files === undefined) return [];
    const present = new Set(files.map((f) => f.path));
    const dirs = foldersOf(files.map((f) => f.path));
    const out: Diagnostic[] = [];
    for (const { target, line } of relativeLinks(doc.body)) {
      let path: string;
      try {
        path = decodeURIComponent(target.replace(/[?#].*$/, ''));
      } catch {
        path = target;
      }
      const norm = posix.normalize(path).replace(/\/+$/, '');
      if (norm === '' || norm === '.') continue;
      const where = { line: doc.bodyLine + line, column: 1 };
      if (norm === '..' || norm.startsWith('../')) {
        out.push(diag('AGENT_SKILL_LINK_BROKEN', `link ${JSON.stringify(target)} leaves the skill folder`, { ...where, hint: 'ship the file inside the skill and link to it relatively' }));
      } else if (!present.has(norm) && !dirs.has(norm)) {
        out.push(diag('AGENT_SKILL_LINK_BROKEN', `link ${JSON.stringify(target)} names no file of the skill`, { ...where, hint: 'fix the path, or add the file' }));
      }
    }
    return out;
  },
};
