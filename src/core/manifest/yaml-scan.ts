/**
 * A pre-scan of YAML text that finds, in one linear pass over its lines and without a parser,
 * documents that break the shape bounds (shape.ts): nesting too deep, a mapping with too many
 * keys, too many values. It runs before the full parser because that parser recurses once per
 * level of block nesting (about 900 levels exhaust the stack) and costs microseconds per value.
 *
 * It reads indentation, `- ` and `? ` indicators, `key:` on a line, flow brackets and commas, and
 * skips comments, block scalars, quoted scalars and continuation lines. Every count it makes is a
 * lower bound of what the parser would build (a construct it does not recognise is counted as
 * less, never as more), so a document it refuses is over the bound for certain; one it passes is
 * checked exactly on the parsed document (yaml-document.ts).
 */
import type { Diagnostic } from '../diagnostics.js';
import { tooDeep, tooManyKeys, tooManyNodes, type ShapeLimits } from './shape.js';

interface Block {
  readonly indent: number;
  readonly kind: 'map' | 'seq';
  keys: number;
}

interface Flow {
  readonly kind: '[' | '{';
  commas: number;
  /** The entry being read is a collection, counted when it opened: its comma counts nothing more. */
  nested: boolean;
}

class Scan {
  readonly blocks: Block[] = [];
  readonly flows: Flow[] = [];
  nodes = 0;
  /** The open quoted scalar's quote, while it spans lines. */
  quote = '';
  /**
   * A block-context quoted scalar goes on only on lines indented more than this column (its
   * collection's): the parser ends it at a line that is not, as an unindent (-1: in flow, no limit).
   */
  quoteParent = -1;
  /** Lines more indented than this belong to a block scalar (-1: none open). */
  blockScalarParent = -1;
  /** The previous content line left a value to come on the next lines (`key:`, `-`, `? `). */
  open = false;
  line = 0;
  found: Diagnostic | undefined;
  /**
   * Set where the text stops being what this scan can read the way the parser reads it (a block
   * scalar header with more after it): the scan stops and settles nothing, and the parsed
   * document is checked exactly instead.
   */
  lost = false;

  constructor(
    readonly limits: ShapeLimits,
    readonly subject: string,
  ) {}

  count(n = 1): void {
    this.nodes += n;
    if (this.nodes > this.limits.maxNodes && this.found === undefined) this.found = tooManyNodes(this.limits, this.subject, { line: this.line, column: 1 });
  }

  depth(): void {
    // The innermost open block collection has an entry one level down; the innermost flow
    // collection may be empty, so only the flow itself is known to be there.
    const known = this.flows.length > 0 ? this.blocks.length + this.flows.length - 1 : this.blocks.length;
    if (known > this.limits.maxDepth && this.found === undefined) {
      this.found = tooDeep(this.limits, { line: this.line, column: 1 });
    }
  }

  /**
   * An entry of the block collection of `kind` at `indent`: the open one, or a new, nested one.
   * An implicit key is counted as a node here; a `- ` item or a `? ` key is counted by its value.
   */
  entry(kind: 'map' | 'seq', indent: number, implicitKey = false): void {
    let top = this.blocks[this.blocks.length - 1];
    // A sequence may sit at its key's indentation, nested under an open `key:`.
    const nests = this.open && kind === 'seq' && top?.kind === 'map' && top.indent === indent;
    if (!nests) {
      // Another kind at the same indentation closes what was open there (or is an error the
      // parser reports): popped, so that nothing is counted twice.
      while (top !== undefined && top.indent === indent && top.kind !== kind) {
        this.blocks.pop();
        top = this.blocks[this.blocks.length - 1];
      }
    }
    if (!nests && top !== undefined && top.indent === indent) {
      if (kind === 'map' && ++top.keys > this.limits.maxKeys && this.found === undefined) {
        this.found = tooManyKeys(this.limits, this.subject, { line: this.line, column: indent + 1 });
      }
    } else {
      this.blocks.push({ indent, kind, keys: kind === 'map' ? 1 : 0 });
      this.depth();
    }
    if (implicitKey) this.count();
  }

  /**
   * Skips quoted text from `from` (just after the opening `q`, or a line start while the scalar
   * spans lines): the index after the closing quote, or -1 when it goes on past `end`.
   */
  skipQuoted(text: string, from: number, end: number, q: string): number {
    for (let j = from; j < end; j++) {
      const c = text[j];
      if (q === '"' && c === '\\') j++;
      else if (c === q) {
        if (q === "'" && text[j + 1] === "'") j++;
        else {
          this.quote = '';
          return j + 1;
        }
      }
    }
    this.quote = q;
    return -1;
  }

  /** Reads flow content from `i` to `end`; brackets may span lines. */
  flow(text: string, i: number, end: number): void {
    for (; i < end; i++) {
      const c = text[i];
      if (c === '"' || c === "'") {
        const next = this.skipQuoted(text, i + 1, end, c);
        if (next === -1) return;
        i = next - 1;
      } else if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) return;
      else if (c === '[' || c === '{') {
        this.flows.push({ kind: c, commas: 0, nested: false });
        this.count();
        this.depth();
      } else if (c === ']' || c === '}') {
        this.flows.pop();
        const outer = this.flows[this.flows.length - 1];
        if (outer !== undefined) outer.nested = true;
      } else if (c === ',') {
        const top = this.flows[this.flows.length - 1];
        if (top === undefined) continue;
        // A scalar entry ends here (the last one, without a comma, is not counted).
        if (!top.nested) this.count();
        top.nested = false;
        if (top.kind === '{' && ++top.commas > this.limits.maxKeys && this.found === undefined) {
          this.found = tooManyKeys(this.limits, this.subject, { line: this.line, column: 1 });
        }
      }
      if (this.flows.length === 0) return;
    }
  }
}

/** Where an implicit key's `:` is on the line (`: ` or `:` at its end), or -1. */
function keyColon(text: string, i: number, end: number): number {
  if (text[i] === '"' || text[i] === "'") {
    const q = text[i];
    let j = i + 1;
    for (; j < end; j++) {
      if (q === '"' && text[j] === '\\') j++;
      else if (text[j] === q) {
        if (q === "'" && text[j + 1] === "'") j++;
        else break;
      }
    }
    return j < end && text[j + 1] === ':' && (j + 2 === end || text[j + 2] === ' ') ? j + 1 : -1;
  }
  if (text[i] === '[' || text[i] === '{' || text[i] === '|' || text[i] === '>' || text[i] === '#') return -1;
  for (let j = i; j < end; j++) {
    const c = text[j];
    if (c === '#' && text[j - 1] === ' ') return -1;
    if (c === ':' && (j + 1 === end || text[j + 1] === ' ')) return j;
  }
  return -1;
}

/** A block scalar header: indentation and chomping indicators, then at most a comment. */
const BLOCK_HEADER = /^[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+(?:#.*)?)?$/;

/** The value after `key:` or `- ` from `i`: a nested block to come, a block scalar, flow, quoted or plain. */
function value(s: Scan, text: string, i: number, end: number, parent: number): void {
  while (i < end && text[i] === ' ') i++;
  // Anchors and tags alone leave the value to the next lines.
  while (i < end && (text[i] === '&' || text[i] === '!')) {
    while (i < end && text[i] !== ' ') i++;
    while (i < end && text[i] === ' ') i++;
  }
  const c = text[i];
  if (i >= end || c === '#') {
    s.open = true;
    return;
  }
  s.open = false;
  if (c === '|' || c === '>') {
    s.count();
    s.blockScalarParent = parent;
    if (!BLOCK_HEADER.test(text.slice(i, end))) s.lost = true;
  } else if (c === '[' || c === '{') s.flow(text, i, end);
  else {
    s.count();
    if (c === '"' || c === "'") {
      s.skipQuoted(text, i + 1, end, c);
      s.quoteParent = parent;
    }
  }
}

/** One content line from `i` (its first non-space character) to `end`; `indent` is `i`'s column. */
function contentLine(s: Scan, text: string, i: number, end: number, indent: number): void {
  while (s.blocks.length > 0 && (s.blocks[s.blocks.length - 1] as Block).indent > indent) s.blocks.pop();
  const top = s.blocks[s.blocks.length - 1];
  // More indented than the open collection, with no value pending: a continuation of a plain
  // scalar (or an error the parser reports); it holds no nodes.
  if (top !== undefined && indent > top.indent && !s.open) return;
  const lineStart = i - indent;
  let col = indent;
  let parent = indent - 1;
  for (;;) {
    // An anchor or a tag before a node (`- &a`, `&a key: v`): the node follows it, here or below.
    while (i < end && (text[i] === '&' || text[i] === '!')) {
      while (i < end && text[i] !== ' ') i++;
      while (i < end && text[i] === ' ') i++;
    }
    if (i >= end) {
      s.open = true;
      return;
    }
    col = i - lineStart;
    const c = text[i];
    const spaced = i + 1 === end || text[i + 1] === ' ';
    if ((c === '-' || c === '?') && spaced) {
      s.entry(c === '-' ? 'seq' : 'map', col);
      s.open = true;
      parent = col;
      i++;
      while (i < end && text[i] === ' ') i++;
      if (i >= end) return;
      col = i - lineStart;
      continue;
    }
    // `: value` under an explicit `? key`: the key was counted with its `?`.
    if (c === ':' && spaced) return value(s, text, i + 1, end, col);
    const colon = keyColon(text, i, end);
    if (colon === -1) return value(s, text, i, end, parent);
    s.entry('map', col, true);
    return value(s, text, colon + 1, end, col);
  }
}

/** The first shape bound `text` breaks for certain, or undefined (then the parsed document is checked exactly). */
export function scanYamlShape(text: string, limits: ShapeLimits, subject: string): Diagnostic | undefined {
  const s = new Scan(limits, subject);
  for (let start = 0; start < text.length && s.found === undefined && !s.lost; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const stop = end > start && text[end - 1] === '\r' ? end - 1 : end;
    s.line++;
    scanLine(s, text, start, stop);
    start = end + 1;
  }
  return s.found;
}

function scanLine(s: Scan, text: string, start: number, stop: number): void {
  if (s.quote !== '') {
    let indent = 0;
    while (start + indent < stop && text[start + indent] === ' ') indent++;
    const unindented = s.flows.length === 0 && start + indent < stop && indent <= s.quoteParent;
    if (!unindented) {
      const after = s.skipQuoted(text, start, stop, s.quote);
      if (after !== -1 && s.flows.length > 0) s.flow(text, after, stop);
      return;
    }
    s.quote = '';
  }
  if (s.flows.length > 0) return s.flow(text, start, stop);
  let i = start;
  while (i < stop && text[i] === ' ') i++;
  if (i === stop) return;
  const indent = i - start;
  if (s.blockScalarParent !== -1) {
    if (indent > s.blockScalarParent) return;
    s.blockScalarParent = -1;
  }
  const c = text[i];
  if (c === '#' || (indent === 0 && c === '%')) return;
  if (indent === 0 && (text.startsWith('---', i) || text.startsWith('...', i)) && (i + 3 === stop || text[i + 3] === ' ')) {
    // A document boundary: what follows starts from the top.
    s.blocks.length = 0;
    s.open = false;
    return;
  }
  contentLine(s, text, i, stop, indent);
}
