/**
 * fs.read_tree: lists a directory tree the policy allows, in a deterministic order, bounded by
 * `max_entries` and `max_depth`, honouring .gitignore files and never following a symlink (a
 * symlink is listed as one). docs/skills/fs.read_tree.md.
 */
import { posix } from 'node:path';
import { isFailure, type CheckedDir } from '../core/policy/index.js';
import type { BuiltinContext, BuiltinOutcome, BuiltinSkill } from '../core/run/index.js';
import { notOpened } from './lib/files.js';
import { bool, bound, denied, fail, jsonBytes, ok, runSkill, str } from './lib/outcome.js';
import { walk, type EntryKind } from './lib/walk.js';

export const DEFAULT_MAX_ENTRIES = 2000;
export const DEFAULT_MAX_DEPTH = 8;
/** Hard caps, whatever the request says. */
export const MAX_ENTRIES_CAP = 100_000;
export const MAX_DEPTH_CAP = 64;

interface TreeEntry {
  readonly path: string;
  readonly kind: EntryKind;
  readonly bytes?: number;
}

/** Bytes an entry adds to the JSON output, with its comma. */
function entrySize(e: TreeEntry): number {
  return jsonBytes(e) + 1;
}

/** The entries below an open directory, within the bounds and the host's output cap. */
async function list(ctx: BuiltinContext, dir: CheckedDir, shownRoot: string, maxEntries: number, maxDepth: number, includeHidden: boolean): Promise<BuiltinOutcome> {
  const entries: TreeEntry[] = [];
  let truncated = false;
  let size = 0;
  // The response's own bytes first, so that the whole response fits the host's output cap.
  const budget = ctx.limits.maxOutputBytes - jsonBytes({ root: shownRoot, entries: [], truncated: false });
  for await (const item of walk(dir, {
    includeHidden,
    maxDepth,
    skipGitDir: true,
    onDepthLimit: () => {
      truncated = true;
    },
  })) {
    if ('denied' in item) return denied(item.denied, `read ${item.abs}`);
    if (ctx.signal.aborted) return fail('SKILL_TIMED_OUT', 'the walk ran out of time');
    const { entry } = item;
    const e: TreeEntry = { path: entry.rel, kind: entry.kind, ...(entry.size !== undefined ? { bytes: entry.size } : {}) };
    if (entries.length >= maxEntries || size + entrySize(e) > budget) {
      truncated = true;
      break;
    }
    size += entrySize(e);
    entries.push(e);
  }
  return ok({ root: shownRoot, entries, truncated });
}

export const fsReadTree: BuiltinSkill = {
  id: 'fs.read_tree',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const root = str(req, 'root', '.');
      const maxEntries = bound(req, 'max_entries', DEFAULT_MAX_ENTRIES, MAX_ENTRIES_CAP);
      const maxDepth = bound(req, 'max_depth', DEFAULT_MAX_DEPTH, MAX_DEPTH_CAP);
      const includeHidden = bool(req, 'include_hidden', false);
      const dir = await ctx.files.openDir(root, 'fs.read');
      if (isFailure(dir)) return notOpened(dir, `read ${root}`, root);
      try {
        return await list(ctx, dir, posix.normalize(root), maxEntries, maxDepth, includeHidden);
      } finally {
        await dir.close();
      }
    }),
};
