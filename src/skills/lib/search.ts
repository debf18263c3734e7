/**
 * What both search.ripgrep paths share: the match record built from a line and a match's
 * position, and the collector that de-duplicates, bounds and flags truncation. Both paths feed
 * the collector the same lines in the same order, so their results are identical.
 */
import { posix } from 'node:path';
import ignore from 'ignore';
import type { Verdict } from './walk.js';

export interface SearchMatch {
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** 1-based byte column of the match in its line, as ripgrep's --column. */
  readonly column: number;
  readonly match: string;
  /** The line's text before the match (at most CONTEXT_CHARS, ending at the match). */
  readonly context_before: string;
  /** The line's text after the match (at most CONTEXT_CHARS), without the line ending. */
  readonly context_after: string;
}

export const CONTEXT_CHARS = 200;
/** Files larger than this are not searched (ripgrep: --max-filesize 16M). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function tail(s: string, n: number): string {
  if (s.length <= n) return s;
  let start = s.length - n;
  if (isHigh(s.charCodeAt(start - 1))) start++;
  return s.slice(start);
}

function head(s: string, n: number): string {
  if (s.length <= n) return s;
  let end = n;
  if (isHigh(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** A match from a line (without its `\n`) and UTF-16 offsets of the matched text. */
export function makeMatch(file: string, line: number, text: string, start: number, end: number): SearchMatch {
  return {
    file,
    line,
    column: Buffer.byteLength(text.slice(0, start)) + 1,
    match: text.slice(start, end),
    context_before: tail(text.slice(0, start), CONTEXT_CHARS),
    context_after: head(text.slice(end).replace(/\r$/, ''), CONTEXT_CHARS),
  };
}

/** The path a result names: relative to the working directory, `./` and `..` normalised away. */
export function displayPath(root: string, rel: string): string {
  return posix.normalize(root === '.' ? rel : `${root}/${rel}`);
}

export class Collector {
  readonly matches: SearchMatch[] = [];
  truncated = false;
  private bytes = 0;
  private readonly seen = new Set<string>();
  constructor(
    private readonly maxMatches: number,
    private readonly maxBytes: number,
  ) {}

  /** Adds one file's matches; false when the bound is reached and the search should stop. */
  addFile(matches: readonly SearchMatch[]): boolean {
    for (const m of matches) {
      const key = `${m.file}\u0000${m.line}\u0000${m.column}`;
      if (this.seen.has(key)) continue;
      const size = Buffer.byteLength(JSON.stringify(m)) + 1;
      if (this.matches.length >= this.maxMatches || this.bytes + size > this.maxBytes) {
        this.truncated = true;
        return false;
      }
      this.seen.add(key);
      this.bytes += size;
      this.matches.push(m);
    }
    return true;
  }
}

/**
 * ripgrep's --glob semantics: gitignore syntax with the meaning inverted (a glob includes, a
 * `!glob` excludes), the last matching glob wins, and when any including glob is given a file
 * no glob matches is left out. Paths are relative to the working directory.
 */
export function globOverrides(globs: readonly string[]): ((path: string, isDir: boolean) => Verdict) | undefined {
  if (globs.length === 0) return undefined;
  const ig = ignore({ ignorecase: false }).add(globs.map((g) => (g.startsWith('!') ? g.slice(1) : `!${g}`)));
  const whitelists = globs.some((g) => !g.startsWith('!'));
  return (path, isDir) => {
    let r: { ignored: boolean; unignored: boolean };
    try {
      r = ig.test(isDir ? `${path}/` : path);
    } catch {
      r = { ignored: false, unignored: false };
    }
    if (r.ignored) return 'ignore';
    if (r.unignored) return 'whitelist';
    return whitelists && !isDir ? 'ignore' : 'none';
  };
}
