/**
 * search.ripgrep without ripgrep: the same walk ripgrep makes (walk.ts with the same ignore,
 * hidden-file and glob rules), each file checked with the host policy and searched line by line
 * with re2js, a linear-time RE2 engine, so no pattern can hang the process.
 */
import type { RE2JS } from 're2js';
import { isFailure, type CheckedFile, type FsFailure } from '../../core/policy/index.js';
import type { BuiltinContext, BuiltinOutcome } from '../../core/run/index.js';
import { denied, fail } from './outcome.js';
import { displayPath, makeMatch, MAX_FILE_BYTES, type Collector, type SearchMatch } from './search.js';
import { walk, type Verdict } from './walk.js';

export interface SearchRoot {
  /** As results name it: relative to the working directory (or absolute outside it). */
  readonly display: string;
  readonly resolved: string;
  readonly isDir: boolean;
}

/** Deep enough for any real tree; bounds the recursion of the walk. */
const MAX_DEPTH = 256;

function lines(bytes: Buffer): { text: string; no: number }[] {
  const out: { text: string; no: number }[] = [];
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let no = 0;
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    no++;
    try {
      out.push({ text: strict.decode(bytes.subarray(start, end)), no });
    } catch {
      // a line that is not UTF-8 is not searched (ripgrep reports it as bytes; both drop it)
    }
    start = end + 1;
  }
  return out;
}

export function searchText(re: RE2JS, bytes: Buffer, file: string): SearchMatch[] {
  if (bytes.includes(0)) return []; // binary, as ripgrep decides
  const found: SearchMatch[] = [];
  for (const { text, no } of lines(bytes)) {
    const m = re.matcher(text);
    while (m.find()) {
      const start = m.start();
      const end = m.end();
      if (end > start) found.push(makeMatch(file, no, text, start, end));
    }
  }
  return found;
}

export async function searchWithoutRipgrep(
  ctx: BuiltinContext,
  re: RE2JS,
  roots: readonly SearchRoot[],
  overrides: ((path: string, isDir: boolean) => Verdict) | undefined,
  collector: Collector,
): Promise<BuiltinOutcome | undefined> {
  const searchFile = async (open: () => Promise<CheckedFile | FsFailure>, display: string): Promise<BuiltinOutcome | boolean> => {
    const file = await open();
    if (isFailure(file)) return file.kind === 'denied' ? denied(file.decision, `read ${display}`) : true; // unreadable files are skipped, as ripgrep does
    let bytes: Buffer;
    try {
      if (file.size > MAX_FILE_BYTES) return true;
      bytes = await file.read(MAX_FILE_BYTES);
    } catch {
      return true;
    } finally {
      await file.close();
    }
    return collector.addFile(searchText(re, bytes, display));
  };
  for (const root of roots) {
    if (!root.isDir) {
      const r = await searchFile(() => ctx.files.openFile(root.resolved), root.display);
      if (r === false) return undefined;
      if (r !== true) return r;
      continue;
    }
    const dir = await ctx.files.openDir(root.resolved, 'fs.read');
    if (isFailure(dir)) {
      if (dir.kind === 'denied') return denied(dir.decision, `read ${root.display}`);
      continue;
    }
    try {
      for await (const item of walk(dir, {
        includeHidden: false,
        maxDepth: MAX_DEPTH,
        skipGitDir: false,
        ...(overrides !== undefined ? { overrides: (rel: string, isDir: boolean) => overrides(displayPath(root.display, rel), isDir) } : {}),
      })) {
        if ('denied' in item) return denied(item.denied, `read ${item.abs}`);
        if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'the search ran out of time');
        if (item.entry.kind !== 'file') continue;
        const r = await searchFile(item.entry.open, displayPath(root.display, item.entry.rel));
        if (r === false) return undefined;
        if (r !== true) return r;
      }
    } finally {
      await dir.close();
    }
  }
  return undefined;
}
