/**
 * A quick reader for the plain YAML that manifests are written in, so that validating a clean
 * manifest never loads the full parser (`yaml`, which parse.ts keeps for positions, diagnostics
 * and in-place edits). It builds the data from js-yaml's flat event stream and resolves plain
 * scalars by the YAML 1.2 core schema exactly as `yaml` does.
 *
 * It only ever accepts; it never reports. Anything the two parsers could read differently, and
 * anything the full parser has a finding for, makes it return undefined, and the caller parses
 * the text again with the full parser: syntax errors, anchors, aliases, tags, directives, more
 * than one document, keys that are not strings, duplicate or prototype keys, numbers JSON cannot
 * hold exactly, tabs, lone carriage returns, block scalars with an indentation indicator, very long lines, `---` and `...` lines, and flow collections over several lines (the full parser
 * warns about their indentation). test/core/manifest/yaml-fast.test.ts holds the two parsers to
 * the same data, and the full parser to no finding, on every document this one accepts.
 */
import { COLLECTION_STYLE, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event } from 'js-yaml';
import { FORBIDDEN_KEYS } from './json-strict.js';
import { DEFAULT_SHAPE_LIMITS, type ShapeLimits } from './shape.js';

/** Longer lines go to the full parser, which bounds implicit keys at 1024 characters. */
const MAX_LINE = 1000;

const UNSURE = Symbol('unsure');

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

function exactInteger(n: number): number | typeof UNSURE {
  return Number.isSafeInteger(n) ? n : UNSURE;
}

/** A plain scalar's value under the YAML 1.2 core schema; UNSURE where JSON cannot hold it. */
function resolvePlain(s: string): unknown {
  if (NULL.test(s)) return null;
  if (BOOL.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT.test(s)) return exactInteger(parseInt(s, 10));
  if (INT_OCT.test(s)) return exactInteger(parseInt(s.slice(2), 8));
  if (INT_HEX.test(s)) return exactInteger(parseInt(s.slice(2), 16));
  if (FLOAT_SPECIAL.test(s)) return UNSURE;
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) {
    const n = parseFloat(s);
    return Number.isFinite(n) ? n : UNSURE;
  }
  return s;
}

function plainText(text: string): boolean {
  // Tabs, and a carriage return that does not end a line: the parsers place them differently.
  if (text.includes('\t') || /\r(?!\n)/.test(text)) return false;
  // Block scalars with an explicit indentation indicator (`|2`, `>1-`): the parsers keep
  // different whitespace-only lines.
  if (/(?:^|[\s:?-])[|>](?:[1-9][+-]?|[+-][1-9])(?=[\s#]|$)/m.test(text)) return false;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end - start > MAX_LINE) return false;
    const line = text.slice(start, end).trimStart();
    // A flow collection closed at the start of a line: the full parser checks its indentation.
    if (line.startsWith(']') || line.startsWith('}')) return false;
    // Document markers, and indented text that js-yaml also reads as one.
    if (line.startsWith('---') || line.startsWith('...')) return false;
    start = end + 1;
  }
  return true;
}

interface Frame {
  readonly value: Record<string, unknown> | unknown[];
  /** For a flow collection, the offset of its line's start; children must share the line. */
  readonly flowLine: number;
  /** For a mapping, the key read and waiting for its value. */
  key: string | undefined;
  /** For a mapping, the keys read so far (shape.ts bounds them). */
  keys: number;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The data of a YAML document that is a mapping written in plain YAML, or undefined for any
 * other document (which the full parser then reads and reports on).
 */
export function readPlainYaml(text: string, limits: ShapeLimits = DEFAULT_SHAPE_LIMITS): Record<string, unknown> | undefined {
  if (!plainText(text)) return undefined;
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: limits.maxDepth });
  } catch {
    return undefined;
  }
  const first = events[0];
  if (first?.type !== EVENT_ID.DOCUMENT || first.directives.length > 0) return undefined;
  const stack: Frame[] = [];
  let root: unknown = UNSURE;
  // Every event but the document's own and the pops is a node (keys are scalars).
  if (events.length > 2 * limits.maxNodes + 2) return undefined;
  let nodes = 0;
  // Attaches a value to the open collection; false where the document is not plain.
  const attach = (value: unknown, offset: number): boolean => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (root !== UNSURE) return false;
      root = value;
      return true;
    }
    if (top.flowLine !== -1 && lineStart(text, offset) !== top.flowLine) return false;
    if (Array.isArray(top.value)) {
      top.value.push(value);
      return true;
    }
    if (top.key === undefined) {
      if (typeof value !== 'string' || FORBIDDEN_KEYS.has(value) || Object.hasOwn(top.value, value)) return false;
      if (++top.keys > limits.maxKeys) return false;
      top.key = value;
      return true;
    }
    top.value[top.key] = value;
    top.key = undefined;
    return true;
  };
  for (let i = 1; i < events.length; i++) {
    const ev = events[i] as Event;
    if (ev.type !== EVENT_ID.POP && ++nodes > limits.maxNodes) return undefined;
    switch (ev.type) {
      case EVENT_ID.SCALAR: {
        if (ev.anchorStart !== -1 || ev.tagStart !== -1) return undefined;
        const raw = getScalarValue(text, ev);
        const value = ev.style === SCALAR_STYLE.PLAIN ? resolvePlain(raw) : raw;
        if (value === UNSURE || !attach(value, ev.valueStart)) return undefined;
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        if (ev.anchorStart !== -1 || ev.tagStart !== -1) return undefined;
        const top = stack[stack.length - 1];
        // A collection as a mapping key has no JSON form.
        if (top !== undefined && !Array.isArray(top.value) && top.key === undefined) return undefined;
        const value: Record<string, unknown> | unknown[] = ev.type === EVENT_ID.SEQUENCE ? [] : {};
        if (!attach(value, ev.start)) return undefined;
        stack.push({ value, flowLine: ev.style === COLLECTION_STYLE.FLOW ? lineStart(text, ev.start) : -1, key: undefined, keys: 0 });
        break;
      }
      case EVENT_ID.POP:
        // The document's own end pops with an empty stack; a second document is not plain.
        if (stack.pop() === undefined && i !== events.length - 1) return undefined;
        break;
      default:
        // An alias, or the start of a second document.
        return undefined;
    }
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return undefined;
  return root as Record<string, unknown>;
}
