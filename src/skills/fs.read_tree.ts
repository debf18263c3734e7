/**
 * fs.read_tree: lists a directory tree the policy allows, in a deterministic order, bounded by
 * `max_entries` and `max_depth`, honouring .gitignore files and never following a symlink (a
 * symlink is listed as one). docs/skills/fs.read_tree.md.
 */
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { errnoCode } from '../core/errors.js';
import type { BuiltinSkill } from '../core/run/index.js';
import { bool, bound, denied, fail, ok, runSkill, str } from './lib/outcome.js';
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

/** Bytes an entry adds to the JSON output, near enough to keep the result under the host cap. */
function entrySize(e: TreeEntry): number {
  return Buffer.byteLength(JSON.stringify(e)) + 1;
}

export const fsReadTree: BuiltinSkill = {
  id: 'fs.read_tree',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const root = str(req, 'root', '.');
      const maxEntries = bound(req, 'max_entries', DEFAULT_MAX_ENTRIES, MAX_ENTRIES_CAP);
      const maxDepth = bound(req, 'max_depth', DEFAULT_MAX_DEPTH, MAX_DEPTH_CAP);
      const includeHidden = bool(req, 'include_hidden', false);

      const decision = await ctx.policy.checkRead(root);
      if (!decision.allowed) return denied(decision, `read ${root}`);
      try {
        if (!(await stat(decision.resolved)).isDirectory()) return fail('SKILL_NOT_A_DIRECTORY', `${root} is not a directory`);
      } catch (err) {
        const code = errnoCode(err);
        return code === 'ENOENT' || code === 'ENOTDIR'
          ? fail('SKILL_FILE_NOT_FOUND', `${root} does not exist`)
          : fail('SKILL_NOT_A_DIRECTORY', `${root} cannot be read (${code ?? 'error'})`);
      }

      const entries: TreeEntry[] = [];
      let truncated = false;
      let size = 0;
      const budget = ctx.limits.maxOutputBytes - 256;
      for await (const item of walk(decision.resolved, {
        includeHidden,
        maxDepth,
        skipGitDir: true,
        checkDir: (abs) => ctx.policy.checkRead(abs),
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
      return ok({ root: posix.normalize(root), entries, truncated });
    }),
};
