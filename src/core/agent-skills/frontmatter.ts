/**
 * Splits SKILL.md into YAML frontmatter and Markdown body, and parses the frontmatter with the
 * same guards as manifests (size, depth, aliases, duplicate and prototype keys) while keeping
 * line numbers relative to SKILL.md.
 *
 * The frontmatter is closed by the first line that is exactly `---` (trailing spaces and a CR
 * allowed). The reference parser splits on the first two `---` substrings instead, so a `---`
 * inside a value breaks it; a line-based split does not.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { firstInvalidUtf8, bytePosition, MANIFEST_MAX_BYTES, parseDocumentBytes, type ParsedDocument, type Position } from '../manifest/index.js';

export interface SkillMdDocument {
  /** The decoded file (BOM removed), or '' when the bytes were refused. */
  readonly text: string;
  /** The frontmatter mapping, when it parsed as one. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  readonly body: string;
  /** 1-based line of SKILL.md where the body starts. */
  readonly bodyLine: number;
  /** Structural and YAML findings, with SKILL.md line numbers. */
  readonly diagnostics: readonly Diagnostic[];
  /** Where the frontmatter value (or key) at `pointer` starts, in SKILL.md coordinates. */
  locate(pointer: string, opts?: { key?: boolean }): Position | undefined;
  /** The source text of the scalar at `pointer` (for plain scalars, exactly what was typed). */
  sourceOf(pointer: string): string | undefined;
}

const DELIMITER = /^---[ \t]*\r?$/;

function empty(text: string, diagnostics: Diagnostic[]): SkillMdDocument {
  return { text, body: '', bodyLine: 1, diagnostics, locate: () => undefined, sourceOf: () => undefined };
}

/** YAML errors become AGENT_SKILL_* codes; the guards keep their manifest codes (same threat). */
function remap(d: Diagnostic, lineOffset: number): Diagnostic {
  const line = d.line !== undefined ? d.line + lineOffset : undefined;
  const moved = line !== undefined ? { ...d, line } : d;
  if (d.code === 'MANIFEST_PARSE_ERROR') {
    const colon = /compact mapping|Nested mappings/i.test(d.message);
    return diag('AGENT_SKILL_YAML_INVALID', `invalid YAML in frontmatter: ${d.message}`, {
      ...(line !== undefined ? { line, column: d.column } : {}),
      hint: colon ? 'a value containing ": " must be quoted, e.g. description: "Use when: ..."' : 'fix the YAML syntax of the frontmatter',
    });
  }
  if (d.code === 'MANIFEST_NOT_MAPPING') {
    return diag('AGENT_SKILL_FRONTMATTER_NOT_MAPPING', d.message.replace('the manifest', 'the frontmatter'), {
      line: lineOffset + 1,
      column: 1,
      hint: 'write the frontmatter as "key: value" lines, starting with name and description',
    });
  }
  return moved;
}

/**
 * Characters that YAML readers do not agree on, anywhere in the frontmatter (a value, a quoted
 * string, a comment). NEL, LS and PS: this parser (YAML 1.2) reads them as characters, YAML 1.1
 * readers (PyYAML, libyaml, Go's yaml, which agent hosts parse SKILL.md with) as line breaks, so
 * `description: x<LS>allowed-tools:<LS> Bash` is one description to `validate`, to an
 * `mcp --skills` listing and to the field-by-field check of a pull, and an `allowed-tools` field
 * to such a host. VT, FF and FS to RS: this parser takes them as characters, and Python's
 * `splitlines()`, which a host may split SKILL.md with before it parses the lines joined again,
 * breaks lines there. Refused: written as escapes in a double-quoted string, every reader reads
 * them alike. (Other control characters a reader refuses, it refuses: no field differs.)
 */
const UNREAD_ALIKE = /[\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;
const YAML11_BREAKS = new Set([0x85, 0x2028, 0x2029]);

function unreadAlike(lines: readonly string[], close: number): Diagnostic | undefined {
  for (let i = 1; i < close; i++) {
    const column = (lines[i] as string).search(UNREAD_ALIKE);
    if (column === -1) continue;
    const code = (lines[i] as string).charCodeAt(column);
    const c = code.toString(16).toUpperCase().padStart(4, '0');
    const why = YAML11_BREAKS.has(code) ? 'which YAML 1.1 readers take for a line break' : "where Python's splitlines() breaks a line";
    return diag('AGENT_SKILL_YAML_INVALID', `the frontmatter holds U+${c}, ${why}: they would read other fields than this check does`, {
      line: i + 1,
      column: column + 1,
      hint: 'remove the character, or write it as an escape (\\N, \\L, \\P, \\x1c) in a double-quoted string',
    });
  }
  return undefined;
}

/** Parses SKILL.md bytes. Never throws for bad input. */
export function parseSkillMd(bytes: Uint8Array): SkillMdDocument {
  if (bytes.length > MANIFEST_MAX_BYTES) {
    return empty('', [diag('MANIFEST_TOO_LARGE', `SKILL.md is ${bytes.length} bytes; the bound is ${MANIFEST_MAX_BYTES}`, {
      hint: 'move long material into references/ files that the body links to',
    })]);
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const content = bytes.subarray(start);
  const bad = firstInvalidUtf8(content);
  if (bad !== -1) {
    return empty('', [diag('MANIFEST_ENCODING', `byte ${bad + start} of SKILL.md is not valid UTF-8`, { ...bytePosition(content, bad), hint: 're-save the file as UTF-8' })]);
  }
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const lines = text.split('\n');
  if (!DELIMITER.test(lines[0] ?? '')) {
    return empty(text, [
      diag('AGENT_SKILL_FRONTMATTER_MISSING', 'SKILL.md must start with YAML frontmatter (---)', {
        line: 1,
        column: 1,
        hint: 'begin the file with a --- line, then name: and description:, then a closing --- line',
      }),
    ]);
  }
  const close = lines.findIndex((l, i) => i > 0 && DELIMITER.test(l));
  if (close === -1) {
    return empty(text, [
      diag('AGENT_SKILL_FRONTMATTER_UNCLOSED', 'SKILL.md frontmatter is not closed with a --- line', {
        line: 1,
        column: 1,
        hint: 'add a line holding only --- after the last frontmatter field',
      }),
    ]);
  }
  // CRLF files: the CR before each LF is line ending, not content (it would end up in the last value).
  const yamlText = lines
    .slice(1, close)
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .join('\n');
  const body = lines.slice(close + 1).join('\n');
  const broken = unreadAlike(lines, close);
  if (broken !== undefined) return empty(text, [broken]);
  const doc: ParsedDocument = parseDocumentBytes(Buffer.from(yamlText, 'utf8'), 'yaml', 'front matter');
  const lineOffset = 1;
  const shift = (p: Position | undefined): Position | undefined => (p === undefined ? undefined : { line: p.line + lineOffset, column: p.column });
  const data = doc.data as Record<string, unknown> | undefined;
  return {
    text,
    ...(data !== undefined ? { frontmatter: data } : {}),
    body,
    bodyLine: close + 2,
    diagnostics: doc.diagnostics.map((d) => remap(d, lineOffset)),
    locate: (pointer, opts) => shift(doc.locate(pointer, opts)),
    sourceOf: (pointer) => {
      const r = doc.scalarRange(pointer);
      return r === undefined ? undefined : doc.text.slice(r[0], r[1]);
    },
  };
}
