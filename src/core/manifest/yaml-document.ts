/**
 * The full YAML/JSON document reader: the `yaml` package's parse, with source positions for every
 * finding, scalar ranges for in-place edits, and the checks that refuse hostile documents. It is
 * a chunk of its own in the CLI build, loaded on first use: a clean manifest is read by
 * yaml-fast.ts (or, for JSON, json-strict.ts) and only needs this module to place a finding.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Scalar,
} from 'yaml';
import { diag, type Diagnostic } from '../diagnostics.js';
import { refused, type DocumentFormat, type ParsedDocument, type Position } from './document.js';
import { FORBIDDEN_KEYS, MANIFEST_MAX_ALIASES, MANIFEST_MAX_DEPTH } from './guards.js';
import { childPointer, parsePointer } from './pointer.js';
import { jsonSyntaxProblem } from './json-syntax.js';

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

interface WalkState {
  readonly source: string;
  readonly diagnostics: Diagnostic[];
  readonly lc: LineCounter;
  tooDeep: boolean;
}

function at(state: WalkState, node: { range?: [number, number, number] | null } | null | undefined): Position | undefined {
  const start = node?.range?.[0];
  if (start === undefined) return undefined;
  const p = state.lc.linePos(start);
  return { line: p.line, column: p.col };
}

// Tags the YAML core schema resolves to JSON values; any other tag changes what a value means.
const JSON_TAGS: ReadonlySet<string> = new Set([
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:map',
  'tag:yaml.org,2002:seq',
]);

function explicitTag(source: string, node: Node): string | undefined {
  // `node.tag` is also set for implicitly resolved scalars; only a tag written in the source counts.
  const start = node.range?.[0];
  if (start === undefined || node.tag === undefined) return undefined;
  const before = source.slice(Math.max(0, start - 128), start);
  return /![^\s]*\s*$/.test(before) || source.startsWith('!', start) ? node.tag : undefined;
}

function checkScalar(state: WalkState, node: Scalar, pointer: string): void {
  const v = node.value;
  const where = { pointer, ...at(state, node) };
  const tag = explicitTag(state.source, node);
  if (tag !== undefined && !JSON_TAGS.has(tag)) {
    state.diagnostics.push(diag('MANIFEST_VALUE_NOT_JSON', `value tagged ${tag} is not a plain JSON value`, { ...where, hint: 'remove the tag' }));
    return;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      state.diagnostics.push(diag('MANIFEST_VALUE_NOT_JSON', `${String(v)} is not a JSON number`, { ...where, hint: 'quote it if a string is meant' }));
    } else if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
      state.diagnostics.push(
        diag('MANIFEST_VALUE_NOT_JSON', `integer ${node.source ?? String(v)} is outside ±(2^53-1) and would lose precision`, {
          ...where,
          hint: 'write it as a string',
        }),
      );
    }
  } else if (v !== null && typeof v === 'object') {
    state.diagnostics.push(
      diag('MANIFEST_VALUE_NOT_JSON', `value tagged ${node.tag ?? '(unknown)'} is not a JSON value`, { ...where, hint: 'remove the tag' }),
    );
  }
}

function walk(state: WalkState, node: Node | null, pointer: string, depth: number): void {
  if (node === null || isAlias(node)) return;
  if (depth > MANIFEST_MAX_DEPTH) {
    if (!state.tooDeep) {
      state.tooDeep = true;
      state.diagnostics.push(
        diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels`, { pointer, ...at(state, node) }),
      );
    }
    return;
  }
  if (isScalar(node)) {
    checkScalar(state, node, pointer);
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => walk(state, item as Node | null, childPointer(pointer, i), depth + 1));
  } else if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (!isScalar(key) || typeof key.value !== 'string') {
        const shown = isScalar(key) ? String(key.value) : 'a collection';
        state.diagnostics.push(
          diag('MANIFEST_VALUE_NOT_JSON', `mapping key ${shown} is not a string`, {
            pointer,
            ...at(state, key ?? node),
            hint: 'quote the key',
          }),
        );
        continue;
      }
      const name = key.value;
      const child = childPointer(pointer, name);
      if (FORBIDDEN_KEYS.has(name)) {
        state.diagnostics.push(
          diag('MANIFEST_FORBIDDEN_KEY', `key ${JSON.stringify(name)} is not allowed`, {
            pointer: child,
            ...at(state, key),
            hint: 'rename the key; these names can alter object prototypes in consumers',
          }),
        );
        continue;
      }
      walk(state, pair.value as Node | null, child, depth + 1);
    }
  }
}

/** Depth of plain data, iteratively (the data may be deeper than the stack allows). */
function dataDepth(root: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (d > max) max = d;
    if (max > MANIFEST_MAX_DEPTH) return max;
    if (v !== null && typeof v === 'object') for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return max;
}

function findNode(doc: Document, pointer: string): { node: Node | undefined; key: Node | undefined; found: boolean } {
  let node = doc.contents as Node | null;
  let key: Node | undefined;
  for (const seg of parsePointer(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === seg);
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

/** Parses decoded text with the full parser. Never throws for bad input. */
export function parseText(text: string, format: DocumentFormat, subject = 'manifest'): ParsedDocument {
  if (flowDepth(text, format) > MANIFEST_MAX_DEPTH) {
    return refused(format, [diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels`, { line: 1, column: 1 })], text);
  }
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch {
      return refused(format, [jsonSyntaxError(text)], text);
    }
  }
  const lc = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, {
      lineCounter: lc,
      prettyErrors: false,
      uniqueKeys: true,
      strict: true,
      schema: 'core',
      customTags: [],
      keepSourceTokens: false,
    });
  } catch (err) {
    // The parser recurses on block nesting; the flow pre-scan cannot see that, so a stack
    // overflow here is a too-deep document, not a crash.
    if (err instanceof RangeError) {
      return refused(format, [diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels`)], text);
    }
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
    if (e.code === 'DUPLICATE_KEY') {
      const key = /^"?([^"\n:]*)"?\s*:?/.exec(text.slice(e.pos[0], e.pos[0] + 200))?.[1]?.trim();
      diagnostics.push(diag('MANIFEST_DUPLICATE_KEY', `key ${JSON.stringify(key ?? '')} appears twice in the same mapping`, { ...pos(e.pos[0]), hint: 'keep one; a parser would silently keep either' }));
      continue;
    }
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
  const parsed = (data: unknown, extra: Diagnostic[] = []): ParsedDocument => ({
    format,
    text,
    data,
    diagnostics: [...diagnostics, ...extra],
    locate,
    scalarRange,
  });
  if (diagnostics.some((d) => d.severity === 'error')) return parsed(undefined);

  const state: WalkState = { source: text, diagnostics: [], lc, tooDeep: false };
  try {
    walk(state, doc.contents as Node | null, '', 0);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    state.diagnostics.push(diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels`));
  }
  if (state.diagnostics.length > 0) return parsed(undefined, state.diagnostics);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MANIFEST_MAX_ALIASES });
  } catch (err) {
    if (err instanceof RangeError) return parsed(undefined, [diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels`)]);
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
  if (dataDepth(data) > MANIFEST_MAX_DEPTH) {
    // Aliases can build depth the source does not show.
    return parsed(undefined, [diag('MANIFEST_TOO_DEEP', `nesting exceeds ${MANIFEST_MAX_DEPTH} levels once aliases are expanded`)]);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const kind = data === null || data === undefined ? 'empty' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
    return parsed(undefined, [
      diag('MANIFEST_NOT_MAPPING', `the ${subject} is ${kind}; it must be a mapping of fields`, { line: 1, column: 1 }),
    ]);
  }
  return parsed(data);
}
