/**
 * The pure half of fs.write_patch: a unified diff (plain or git-style) parsed with jsdiff into
 * one operation per file, and hunks applied to text in memory, each failed hunk reported with
 * its reason. Nothing here touches the file system.
 */
import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import { pushAll } from '../../core/findings.js';

export type RejectReason = 'context_mismatch' | 'file_missing' | 'file_exists' | 'delete_mismatch' | 'binary_patch' | 'not_text';

export interface Reject {
  readonly file: string;
  /** 1-based index of the hunk within its file's section; 0 when the whole file is refused. */
  readonly hunk: number;
  readonly reason: RejectReason;
  readonly detail: string;
}

export interface FileOp {
  /** Path the content comes from (null when the diff creates the file). */
  readonly from: string | null;
  /** Path the result goes to (null when the diff deletes the file). */
  readonly to: string | null;
  /** A rename removes `from` once `to` is written. */
  readonly rename: boolean;
  readonly binary: boolean;
  readonly hunks: readonly StructuredPatchHunk[];
  /** Permission bits from a git `new mode` / `new file mode` header. */
  readonly mode?: number;
}

export type Parsed = { readonly ok: true; readonly ops: readonly FileOp[] } | { readonly ok: false; readonly message: string };

const DEV_NULL = '/dev/null';

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A name git wrote C-quoted (`"dir/caf\303\251.txt"`): escapes and octal bytes, decoded as
 * UTF-8. Undefined for a malformed quoting (an unknown escape, a truncated octal, a stray quote,
 * bytes that are not UTF-8), which the caller refuses.
 */
export function unquoteC(quoted: string): string | undefined {
  const body = Array.from(quoted.slice(1, -1)); // code points, not UTF-16 units
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '"') return undefined;
    if (c !== '\\') {
      pushAll(bytes, Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i, i + 3).join(''));
    if (octal !== null) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else if (Object.hasOwn(C_ESCAPES, next)) {
      bytes.push(C_ESCAPES[next] as number);
    } else {
      return undefined;
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/** git's a/ and b/ prefixes (and plain diffs' names) to the path the hunk applies to. */
function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/', git: boolean): string | null {
  if (name === undefined || name === DEV_NULL) return null;
  const quoted = name.length >= 2 && name.startsWith('"') && name.endsWith('"');
  const unquoted = quoted ? unquoteC(name) : name;
  if (unquoted === undefined) throw new MalformedName(name);
  return git || unquoted.startsWith(prefix) ? unquoted.replace(/^[ab]\//, '') : unquoted;
}

const NAME_HEADER = /^(?:--- |\+\+\+ |diff --git |rename from |rename to |copy from |copy to )(.*)$/;
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * jsdiff unquotes C-quoted names leniently (an unknown escape kept, bytes that are not UTF-8
 * replaced, text after the closing quote dropped), so the header lines are checked here first:
 * the first quoted name that is not exactly one well-formed C string, or undefined. Hunk bodies
 * are skipped by their line counts, so an added line that reads like a header is left alone.
 */
function malformedQuotedName(text: string): string | undefined {
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of text.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === ' ' || c === '-' || c === '+' || c === '\\' || line === '') {
        if (c !== '+' && c !== '\\') oldLeft--;
        if (c !== '-' && c !== '\\') newLeft--;
        continue;
      }
      oldLeft = newLeft = 0;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk !== null) {
      oldLeft = Number(hunk[1] ?? 1);
      newLeft = Number(hunk[2] ?? 1);
      continue;
    }
    const value = NAME_HEADER.exec(line)?.[1];
    if (value === undefined) continue;
    const bad = badQuotedToken(value);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** The first quoted token in a header value that does not close, is followed by more text, or does not decode. */
function badQuotedToken(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '"' || (i > 0 && value[i - 1] !== ' ')) continue;
    let end = i + 1;
    while (end < value.length && value[end] !== '"') end += value[end] === '\\' ? 2 : 1;
    const token = value.slice(i, end + 1);
    const after = value[end + 1];
    if (end >= value.length || (after !== undefined && after !== ' ' && after !== '\t') || unquoteC(token) === undefined) return token;
    i = end;
  }
  return undefined;
}

class MalformedName extends Error {
  constructor(name: string) {
    super(`the file name ${name} is not a valid C-quoted name`);
  }
}

function modeOf(p: StructuredPatch): number | undefined {
  if (p.newMode === undefined || !/^[0-7]{6}$/.test(p.newMode)) return undefined;
  return parseInt(p.newMode.slice(-3), 8) & 0o777;
}

export async function parseUnifiedDiff(text: string): Promise<Parsed> {
  const { parsePatch } = await import('diff');
  const malformed = malformedQuotedName(text);
  if (malformed !== undefined) return { ok: false, message: new MalformedName(malformed).message };
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(text);
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  try {
    return toOps(patches);
  } catch (err) {
    if (err instanceof MalformedName) return { ok: false, message: err.message };
    throw err;
  }
}

function toOps(patches: readonly StructuredPatch[]): Parsed {
  const ops: FileOp[] = [];
  for (const p of patches) {
    if (p.oldFileName === undefined && p.newFileName === undefined && p.hunks.length === 0) continue;
    const git = p.isGit === true;
    const from = p.isCreate === true ? null : stripPrefix(p.oldFileName, 'a/', git);
    const to = p.isDelete === true ? null : stripPrefix(p.newFileName, 'b/', git);
    if (from === null && to === null) return { ok: false, message: 'a file section names neither an old nor a new file' };
    const mode = modeOf(p);
    ops.push({
      from,
      to,
      rename: p.isRename === true,
      binary: p.isBinary === true,
      hunks: p.hunks,
      ...(mode !== undefined ? { mode } : {}),
    });
  }
  if (ops.length === 0) return { ok: false, message: 'the diff names no file' };
  return { ok: true, ops };
}

export type Applied = { readonly ok: true; readonly text: string; readonly hunks: number } | { readonly ok: false; readonly rejects: readonly Reject[] };

/**
 * Applies a file's hunks. The whole set is applied first (jsdiff keeps later hunks after
 * earlier ones); only when that fails is each hunk tried alone, at its line shifted by the
 * hunks before it, to say which hunks do not fit.
 */
export async function applyHunks(text: string, hunks: readonly StructuredPatchHunk[], file: string): Promise<Applied> {
  const { applyPatch } = await import('diff');
  if (hunks.length === 0) return { ok: true, text, hunks: 0 };
  const whole = applyPatch(text, { hunks: [...hunks] } as StructuredPatch);
  if (whole !== false) return { ok: true, text: whole, hunks: hunks.length };
  const rejects: Reject[] = [];
  let current = text;
  let delta = 0;
  hunks.forEach((h, i) => {
    const shifted = { ...h, oldStart: h.oldStart + delta, newStart: h.newStart + delta };
    const r = applyPatch(current, { hunks: [shifted] } as StructuredPatch);
    if (r === false) {
      rejects.push({
        file,
        hunk: i + 1,
        reason: 'context_mismatch',
        detail: `hunk @@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@ does not match the file`,
      });
      return;
    }
    current = r;
    delta += h.newLines - h.oldLines;
  });
  if (rejects.length === 0) {
    rejects.push({ file, hunk: 0, reason: 'context_mismatch', detail: 'the hunks fit one by one but not in order' });
  }
  return { ok: false, rejects };
}
