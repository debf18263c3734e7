/**
 * Reads skill.md into what the checks need: its front matter, title, H2 sections, and the inline
 * code spans and list items in each. A line-based reader, not a full CommonMark parser: it knows
 * ATX headings, fenced code blocks (whose content is never read as headings or references), list
 * items and backtick code spans, which is everything the bundle format gives meaning to.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { parseDocumentBytes, type ParsedDocument } from '../manifest/index.js';
import { pushAll } from '../findings.js';

export interface DocLine {
  readonly text: string;
  /** 1-based line number in skill.md. */
  readonly line: number;
}

export interface CodeSpan {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

export interface DocSection {
  /** The heading as written. */
  readonly heading: string;
  /** Normalised for comparison: lower case, single spaces, without a trailing parenthesis. */
  readonly key: string;
  readonly line: number;
  /** Lines below the heading up to the next H1 or H2, fenced code excluded. */
  readonly body: readonly DocLine[];
}

export interface SkillDoc {
  readonly text: string;
  /** Front matter between `---` lines at the top, when present. */
  readonly frontMatter?: { readonly document: ParsedDocument; readonly line: number };
  readonly title?: DocLine;
  readonly sections: readonly DocSection[];
  /** Inline code spans outside fenced code, anywhere in the document. */
  readonly codeSpans: readonly CodeSpan[];
  readonly diagnostics: readonly Diagnostic[];
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

/** "Default Behaviour (v1)" → "default behaviour" */
export function sectionKey(heading: string): string {
  return heading
    .replace(/\s+#+\s*$/, '')
    .replace(/\s*\([^)]*\)\s*$/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Inline code spans of one line, with CommonMark's one-space trim. */
export function codeSpansOf(text: string, line: number): CodeSpan[] {
  const out: CodeSpan[] = [];
  for (const m of text.matchAll(CODE_SPAN)) {
    let inner = m[2] as string;
    if (inner.length > 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '') inner = inner.slice(1, -1);
    out.push({ text: inner, line, column: (m.index ?? 0) + (m[1] as string).length + 1 });
  }
  return out;
}

/** The text of each list item in `lines` (first line of the item only). */
export function listItems(lines: readonly DocLine[]): DocLine[] {
  const out: DocLine[] = [];
  for (const l of lines) {
    const m = LIST_ITEM.exec(l.text);
    if (m) out.push({ text: m[1] as string, line: l.line });
  }
  return out;
}

function readFrontMatter(lines: readonly string[], file: string): { end: number; fm?: SkillDoc['frontMatter']; diagnostics: Diagnostic[] } {
  if (lines[0]?.trimEnd() !== '---') return { end: 0, diagnostics: [] };
  const close = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (close === -1) {
    return {
      end: 0,
      diagnostics: [diag('SKILL_DOC_FRONT_MATTER', 'front matter opened with --- is never closed', { file, line: 1, column: 1, hint: 'end it with a line holding only ---' })],
    };
  }
  const yaml = lines.slice(1, close).join('\n');
  const document = parseDocumentBytes(Buffer.from(yaml, 'utf8'), 'yaml', 'front matter');
  // Positions inside the front matter are offset by the opening --- line.
  const diagnostics = document.diagnostics.map((d) =>
    diag('SKILL_DOC_FRONT_MATTER', `front matter: ${d.message}`, {
      file,
      ...(d.line !== undefined ? { line: d.line + 1 } : { line: 1 }),
      ...(d.column !== undefined ? { column: d.column } : {}),
    }),
  );
  return { end: close + 1, fm: { document, line: 1 }, diagnostics };
}

/** Parses skill.md text; `file` names it in diagnostics. Never throws. */
export function parseSkillDoc(text: string, file: string): SkillDoc {
  const lines = text.split(/\r\n|\n|\r/);
  const diagnostics: Diagnostic[] = [];
  const fm = readFrontMatter(lines, file);
  pushAll(diagnostics, fm.diagnostics);

  let title: DocLine | undefined;
  const sections: { heading: string; key: string; line: number; body: DocLine[] }[] = [];
  const codeSpans: CodeSpan[] = [];
  let fence: { char: string; len: number; line: number } | undefined;
  for (let i = fm.end; i < lines.length; i++) {
    const raw = lines[i] as string;
    const n = i + 1;
    const f = FENCE.exec(raw);
    if (fence !== undefined) {
      if (f && (f[1] as string)[0] === fence.char && (f[1] as string).length >= fence.len && (f[2] as string).trim() === '') fence = undefined;
      continue;
    }
    if (f && !((f[1] as string)[0] === '`' && (f[2] as string).includes('`'))) {
      fence = { char: (f[1] as string)[0] as string, len: (f[1] as string).length, line: n };
      continue;
    }
    const h = HEADING.exec(raw);
    if (h && ((h[1] as string).length <= 2)) {
      const heading = (h[2] ?? '').replace(/[ \t]+#+$/, '').trim();
      if ((h[1] as string).length === 1) {
        title ??= { text: heading, line: n };
        sections.push({ heading, key: '', line: n, body: [] });
      } else {
        sections.push({ heading, key: sectionKey(heading), line: n, body: [] });
      }
      pushAll(codeSpans, codeSpansOf(raw, n));
      continue;
    }
    sections.at(-1)?.body.push({ text: raw, line: n });
    pushAll(codeSpans, codeSpansOf(raw, n));
  }
  if (fence !== undefined) {
    diagnostics.push(
      diag('SKILL_DOC_FENCE_UNCLOSED', `the code fence opened on line ${fence.line} is never closed; everything after it is read as code`, {
        file,
        line: fence.line,
        column: 1,
        hint: `close it with a line of ${fence.char.repeat(fence.len)}`,
      }),
    );
  }
  return {
    text,
    ...(fm.fm !== undefined ? { frontMatter: fm.fm } : {}),
    ...(title !== undefined ? { title } : {}),
    sections: sections.filter((s) => s.key !== ''),
    codeSpans,
    diagnostics,
  };
}
