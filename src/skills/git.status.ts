/**
 * git.status: branch, ahead/behind its upstream, and the staged, unstaged and untracked paths
 * of the work tree at the run's working directory, from `git status --porcelain=v2`. Read-only:
 * optional locks are off, so git does not even refresh the index. docs/skills/git.status.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { openGit } from './lib/git.js';
import { fail, ok, runSkill } from './lib/outcome.js';
import { lenientUtf8 } from './lib/text.js';

export interface GitStatus {
  branch: string;
  ahead: number;
  behind: number;
  staged: string[];
  unstaged: string[];
  untracked: string[];
}

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Parses `git status --porcelain=v2 --branch -z` output. */
export function parsePorcelainV2(out: string): GitStatus {
  const status: GitStatus = { branch: '', ahead: 0, behind: 0, staged: [], unstaged: [], untracked: [] };
  const items = out.split('\u0000');
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as string;
    if (item === '') continue;
    const fields = item.split(' ');
    const kind = fields[0];
    if (kind === '#') {
      if (fields[1] === 'branch.head') status.branch = fields.slice(2).join(' ');
      if (fields[1] === 'branch.ab') {
        status.ahead = Math.abs(Number(fields[2] ?? 0));
        status.behind = Math.abs(Number(fields[3] ?? 0));
      }
      continue;
    }
    const xy = fields[1] ?? '..';
    if (kind === '1' || kind === '2') {
      const path = fields.slice(kind === '1' ? 8 : 9).join(' ');
      if (kind === '2') i++; // the rename's original path follows
      if (xy[0] !== '.') status.staged.push(path);
      if (xy[1] !== '.') status.unstaged.push(path);
    } else if (kind === 'u') {
      status.unstaged.push(fields.slice(10).join(' '));
    } else if (kind === '?') {
      status.untracked.push(item.slice(2));
    }
  }
  status.staged.sort(byBytes);
  status.unstaged.sort(byBytes);
  status.untracked.sort(byBytes);
  return status;
}

export const gitStatus: BuiltinSkill = {
  id: 'git.status',
  run: (input, ctx) =>
    runSkill(input, async () => {
      const opened = await openGit(ctx);
      if ('outcome' in opened) return opened.outcome;
      const max = ctx.limits.maxOutputBytes;
      const r = await opened.git.run(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--ignore-submodules=all'], max);
      if ('outcome' in r) return r.outcome;
      if (r.result.stopped) return fail('SKILL_OUTPUT_LIMIT', `the status of this work tree is larger than the host's ${max}-byte output cap`);
      return ok(parsePorcelainV2(lenientUtf8(r.result.stdout)));
    }),
};
