/**
 * Everything skillctl does with the full YAML package (`yaml`): reading a YAML/JSON document with
 * source positions for every finding, scalar ranges for in-place edits, and the checks that refuse
 * hostile documents; and writing the YAML that convert and init create (`toYamlText`). It is a
 * chunk of its own in the CLI build, loaded on first use, so the parser is in one bundle, not in
 * each command's: a clean manifest is read by yaml-fast.ts (or, for JSON, json-strict.ts) and
 * only needs this module to place a finding.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  Document as YamlDocument,
  Scalar,
  visit,
  type Pair,
  type YAMLMap,
  type Document,
  type Node,
} from 'yaml';
import { diag, type Diagnostic } from '../diagnostics.js';
import { refused, type DocumentFormat, type ParsedDocument, type Position } from './document.js';
import { MANIFEST_MAX_ALIASES } from './guards.js';
import { jsonSyntaxProblem } from './json-syntax.js';
import { parsePointer } from './pointer.js';
import { checkDataShape, DEFAULT_SHAPE_LIMITS, tooDeep, type ShapeLimits } from './shape.js';
import { scanYamlShape } from './yaml-scan.js';
import { walkDocument } from './yaml-walk.js';

/**
 * Deepest `[`/`{` nesting outside quoted strings and comments. Cheap, and lets a 10,000-deep
 * flow document be refused before any recursive parser sees it.
 */
function flowDepth(text: string, format: DocumentFormat): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  let lineStart = true;
  let prevSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && format === 'yaml')) quote = c;
    else if (c === '#' && format === 'yaml' && (prevSpace || lineStart)) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl - 1;
    } else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    lineStart = c === '\n';
    prevSpace = c === ' ' || c === '\t' || c === '\n';
  }
  return max;
}

/**
 * Each mapping's keys, indexed on first lookup: a finding per key of a wide mapping would
 * otherwise search the mapping once per finding. The first pair of a key wins, as in `find`.
 */
const keyIndex = new WeakMap<object, Map<string, Pair>>();

function pairOf(map: YAMLMap, seg: string): Pair | undefined {
  let index = keyIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const p of map.items) {
      if (!isPair(p) || !isScalar(p.key)) continue;
      const k = String(p.key.value);
      if (!index.has(k)) index.set(k, p);
    }
    keyIndex.set(map, index);
  }
  return index.get(seg);
}

function findNode(doc: Document, pointer: string): { node: Node | undefined; key: Node | undefined; found: boolean } {
  let node = doc.contents as Node | null;
  let key: Node | undefined;
  for (const seg of parsePointer(pointer)) {
    if (isMap(node)) {
      const pair = pairOf(node, seg);
      if (pair === undefined) return { node: node ?? undefined, key, found: false };
      key = pair.key as Node;
      node = pair.value as Node | null;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)];
      if (!/^(0|[1-9][0-9]*)$/.test(seg) || item === undefined) return { node: node ?? undefined, key, found: false };
      key = undefined;
      node = item as Node;
    } else {
      return { node: node ?? undefined, key, found: false };
    }
    if (isAlias(node)) node = node.resolve(doc) ?? null;
  }
  return { node: node ?? undefined, key, found: true };
}

/** Where and why JSON.parse refused `text`, in skillctl's words (json-syntax.ts): never its message. */
function jsonSyntaxError(text: string): Diagnostic {
  const p = jsonSyntaxProblem(text);
  return diag('MANIFEST_PARSE_ERROR', `invalid JSON: ${p?.reason ?? 'the document is not JSON'}`, p !== undefined ? { line: p.line, column: p.column } : {});
}

/** The message of a stack overflow inside the parser (it recurses once per level of block nesting). */
const STACK_OVERFLOW = /Maximum call stack size exceeded|too much recursion/;

/**
 * Parses decoded text with the full parser. Never throws for bad input. Documents over a shape
 * bound (shape.ts) are refused before the parser sees them: JSON from JSON.parse's value, YAML
 * from a scan of its lines (yaml-scan.ts); what that scan cannot settle is checked exactly on the
 * parsed document.
 */
export function parseText(text: string, format: DocumentFormat, subject = 'manifest', limits: ShapeLimits = DEFAULT_SHAPE_LIMITS): ParsedDocument {
  if (flowDepth(text, format) > limits.maxDepth) return refused(format, [tooDeep(limits, { line: 1, column: 1 })], text);
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return refused(format, [jsonSyntaxError(text)], text);
    }
    const shape = checkDataShape(value, limits, subject);
    if (shape !== undefined) return refused(format, [shape], text);
  } else {
    const shape = scanYamlShape(text, limits, subject);
    if (shape !== undefined) return refused(format, [shape], text);
  }
  const lc = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, {
      lineCounter: lc,
      prettyErrors: false,
      // Duplicate keys are found by walkDocument in linear time; the parser's own check compares
      // every pair of keys of a mapping.
      uniqueKeys: false,
      strict: true,
      schema: 'core',
      customTags: [],
      keepSourceTokens: false,
    });
  } catch (err) {
    // The scan refuses what is too deep for certain; a stack overflow past it is too deep too.
    if (err instanceof RangeError) return refused(format, [tooDeep(limits)], text);
    throw err;
  }
  const pos = (offset: number | undefined): Partial<Position> => {
    if (offset === undefined) return {};
    const p = lc.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const diagnostics: Diagnostic[] = [];
  for (const e of doc.errors) {
    let message = e.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? e.message;
    // The parser reports a stack overflow it caught as an error of the document.
    if (STACK_OVERFLOW.test(message)) return refused(format, [tooDeep(limits, pos(e.pos[0]))], text);
    if (e.code === 'MULTIPLE_DOCS') message = 'the file holds more than one YAML document (---); a manifest is exactly one';
    diagnostics.push(diag('MANIFEST_PARSE_ERROR', message, pos(e.pos[0])));
  }
  for (const w of doc.warnings) {
    const message = w.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? w.message;
    const tagged = w.code === 'TAG_RESOLVE_FAILED';
    diagnostics.push(diag(tagged ? 'MANIFEST_VALUE_NOT_JSON' : 'MANIFEST_YAML_WARNING', message, pos(w.pos[0])));
  }
  const locate = (pointer: string, opts: { key?: boolean } = {}): Position | undefined => {
    const { node, key, found } = findNode(doc, pointer);
    const target = found && opts.key === true && key !== undefined ? key : node;
    const start = (target as { range?: [number, number, number] } | undefined)?.range?.[0];
    return start === undefined ? undefined : (pos(start) as Position);
  };
  const scalarRange = (pointer: string): readonly [number, number] | undefined => {
    const { node, found } = findNode(doc, pointer);
    if (!found || !isScalar(node) || !node.range) return undefined;
    return [node.range[0], node.range[1]];
  };
  const parsed = (data: unknown, extra: readonly Diagnostic[] = []): ParsedDocument => ({
    format,
    text,
    data,
    diagnostics: [...diagnostics, ...extra],
    locate,
    scalarRange,
  });
  const walked = walkDocument(doc.contents as Node | null, text, lc, limits);
  if (walked.shape !== undefined) return refused(format, [walked.shape], text);
  if (walked.duplicates.length > 0 || diagnostics.some((d) => d.severity === 'error')) return parsed(undefined, walked.duplicates);
  if (walked.findings.length > 0) return parsed(undefined, walked.findings);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MANIFEST_MAX_ALIASES });
  } catch (err) {
    if (err instanceof RangeError) return parsed(undefined, [tooDeep(limits)]);
    const message = err instanceof Error ? err.message : String(err);
    if (/alias/i.test(message)) {
      return parsed(undefined, [
        diag('MANIFEST_ALIAS_LIMIT', `more than ${MANIFEST_MAX_ALIASES} alias expansions`, {
          line: 1,
          column: 1,
          hint: 'write the repeated values out, or use fewer anchors',
        }),
      ]);
    }
    throw err;
  }
  // Aliases can build depth, keys and values the source does not show.
  const expanded = checkDataShape(data, limits, subject);
  if (expanded !== undefined) return parsed(undefined, [{ ...expanded, message: `${expanded.message} once aliases are expanded` }]);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const kind = data === null || data === undefined ? 'empty' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return parsed(undefined, [
      diag('MANIFEST_NOT_MAPPING', `the ${subject} is ${kind}; it must be a mapping of fields`, { line: 1, column: 1 }),
    ]);
  }
  return parsed(data);
}

/**
 * What YAML readers do not read alike unless escaped: NEL, LS and PS (line breaks to YAML 1.1
 * readers) and the control characters YAML allows only escaped (C0 but tab, LF and CR; DEL; C1).
 * agent-skills/frontmatter.ts refuses those that make a reader see other fields in a SKILL.md.
 */
const UNREAD_ALIKE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/;
const UNREAD_ALIKE_ALL = new RegExp(UNREAD_ALIKE.source, 'g');
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };

/** The double-quoted escape of one such character. */
function escapeUnreadAlike(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED_ESCAPES[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/**
 * `value` as YAML text the way skillctl writes manifests and front matter: no line folding (a long
 * description stays on one line), and an object that appears twice written twice, never as an alias.
 */
export function toYamlText(value: unknown): string {
  const options = { lineWidth: 0, aliasDuplicateObjects: false };
  const doc = new YamlDocument(value, options);
  // NEL, LS and PS are ordinary characters to YAML 1.2 (this package) but line breaks to YAML 1.1
  // readers (PyYAML, libyaml, Go's yaml): written plain, `x<LS>allowed-tools:<LS> Bash` is one
  // description here and an `allowed-tools` field there; this package writes DEL and C1 controls
  // as they are, which PyYAML refuses. Such a string is written double-quoted, every such
  // character as an escape (\N, \L, \P, \x7f), which every reader reads as the character itself.
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && UNREAD_ALIKE.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString(options).replace(UNREAD_ALIKE_ALL, escapeUnreadAlike);
}
