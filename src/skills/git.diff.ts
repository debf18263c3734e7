/**
 * git.diff: the unified diff of the work tree against the index (`working`), of the index
 * against HEAD (`staged`), or introduced by one commit (`commit`), at most `max_bytes` of it.
 * External diff drivers and textconv are off; git is stopped once the bound is passed.
 * docs/skills/git.diff.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { openGit } from './lib/git.js';
import { bound, fail, ok, optStr, RequestError, runSkill, str } from './lib/outcome.js';
import { lenientUtf8, utf8Prefix } from './lib/text.js';

export const DEFAULT_MAX_BYTES = 131_072;
const COMMIT = /^[0-9a-f]{4,64}$/;
const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short'];

export const gitDiff: BuiltinSkill = {
  id: 'git.diff',
  run: (input, ctx) =>
    runSkill(input, async (req) => {
      const target = str(req, 'target', 'working');
      if (target !== 'working' && target !== 'staged' && target !== 'commit') throw new RequestError('/target', '`target` must be working, staged or commit');
      const commit = optStr(req, 'commit');
      if (target === 'commit' && commit === undefined) throw new RequestError('/commit', 'target commit needs `commit`');
      if (commit !== undefined && !COMMIT.test(commit)) throw new RequestError('/commit', '`commit` must be a hexadecimal commit id');
      const maxBytes = bound(req, 'max_bytes', DEFAULT_MAX_BYTES, ctx.limits.maxOutputBytes);

      const opened = await openGit(ctx);
      if ('outcome' in opened) return opened.outcome;
      const { git } = opened;
      let args: string[];
      if (target === 'commit') {
        const rev = await git.run(['rev-parse', '--verify', '--quiet', `${commit as string}^{commit}`], 256);
        if ('outcome' in rev) {
          return rev.outcome.status === 'error' && rev.outcome.error.code === 'SKILL_GIT_FAILED'
            ? fail('SKILL_COMMIT_NOT_FOUND', `no commit ${commit as string} in this repository`)
            : rev.outcome;
        }
        const sha = lenientUtf8(rev.result.stdout).trim();
        args = ['show', '--format=', '--patch', '--diff-merges=first-parent', ...DIFF_FLAGS, sha, '--'];
      } else {
        args = ['diff', ...(target === 'staged' ? ['--cached'] : []), ...DIFF_FLAGS, '--'];
      }
      const r = await git.run(args, maxBytes);
      if ('outcome' in r) return r.outcome;
      const truncated = r.result.stopped || r.result.stdout.length > maxBytes;
      const diff = lenientUtf8(utf8Prefix(r.result.stdout, maxBytes));
      return ok({ diff, bytes: Buffer.byteLength(diff), truncated });
    }),
};
