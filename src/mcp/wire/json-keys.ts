/**
 * What JSON.parse hides: an object with the same key twice (it keeps the last, silently) and a
 * `__proto__` key (an own property after JSON.parse, but a prototype once code copies the object
 * with `obj[key] = value`, as schema libraries do). Both are ways to make a checker and a user of
 * one message read different things, so the server refuses them. The text is scanned only after
 * JSON.parse accepted it, so it is known to be well-formed JSON and a small state machine over
 * its strings and brackets suffices.
 */

/**
 * Arrays and objects a message may nest, the message itself counted. JSON.parse takes a line of
 * 100,000 brackets, but what walks the value after it recurses (the SDK's schemas, the digest
 * that records a refused call): such a call got -32603 and left no record. MCP's own messages
 * and any tool's arguments nest far less.
 */
export const MAX_JSON_DEPTH = 64;

/** Where the first offending key is: its path from the message's root, and what is wrong. */
export interface KeyProblem {
  /**
   * Path segments from the root: object keys and array indexes; for `deep`, the path of the
   * value that nests one level too many.
   */
  readonly path: readonly (string | number)[];
  readonly problem: 'duplicate' | 'proto' | 'deep';
}

type Frame = { kind: 'object'; keys: Set<string>; key: string | undefined; expectKey: boolean } | { kind: 'array'; index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function pathOf(stack: readonly Frame[], key: string): (string | number)[] {
  const path: (string | number)[] = [];
  for (let i = 0; i < stack.length - 1; i++) {
    const f = stack[i] as Frame;
    path.push(f.kind === 'object' ? (f.key ?? '') : f.index);
  }
  path.push(key);
  return path;
}

/** The first duplicate or `__proto__` key of well-formed JSON `text`, or where it nests past MAX_JSON_DEPTH; undefined when neither. */
export function findKeyProblem(text: string): KeyProblem | undefined {
  const stack: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else if (d === QUOTE || j >= n) break;
        else j++;
      }
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        // A key written with escapes ("\u005f_proto__") is the key it decodes to.
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (key === '__proto__') return { path: pathOf(stack, key), problem: 'proto' };
        if (top.keys.has(key)) return { path: pathOf(stack, key), problem: 'duplicate' };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      // The value opened here lies at each frame's current key or index.
      if (stack.length === MAX_JSON_DEPTH) return { path: stack.map((f) => (f.kind === 'object' ? (f.key ?? '') : f.index)), problem: 'deep' };
      stack.push(c === 0x7b ? { kind: 'object', keys: new Set(), key: undefined, expectKey: true } : { kind: 'array', index: 0 });
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top !== undefined) top.index++;
    }
  }
  return undefined;
}

/** `params.arguments.path`, `items[2]`: a path as the server's error messages name it. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === '' ? 'the message' : out;
}
