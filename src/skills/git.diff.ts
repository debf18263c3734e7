/**
 * git.diff: the unified diff of the work tree against the index (`working`), of the index
 * against HEAD (`staged`), or introduced by one commit (`commit`), at most `max_bytes` of it.
 * External diff drivers and textconv are off; git is stopped once the bound is passed.
 * docs/skills/git.diff.md.
 */
import type { BuiltinSkill } from '../core/run/index.js';
import { openGit } from './lib/git.js';
import { bound, fail, fitOutput, ok, optStr, RequestError, runSkill, str } from './lib/outcome.js';
import { lenientUtf8, utf8Prefix } from './lib/text.js';

export const DEFAULT_MAX_BYTES = 131_072;
const COMMIT = /^[0-9a-f]{4,64}$/;
const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short'];
/**
 * Submodules are other repositories, each with its own configuration and its own `.git`, which
 * may be a file leading anywhere. The work tree's diff would read each submodule's HEAD there (with
 * `--sandbox none`, even outside the grant: its commit id appears in the diff) and, to tell whether
 * it is dirty, run `git status` inside it under the submodule's own configuration, whose filters
 * the overrides in lib/git.ts do not know. So `working` leaves submodules out entirely; `staged`
 * and `commit` compare the commits the index and the trees record, which never opens a submodule.
 */
const SUBMODULES = { working: '--ignore-submodules=all', staged: '--ignore-submodules=dirty', commit: '--ignore-submodules=dirty' } as const;

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
        // --no-show-signature: verifying a signed commit (or a merged signed tag) runs gpg.
        args = ['show', '--format=', '--patch', '--no-show-signature', '--diff-merges=first-parent', ...DIFF_FLAGS, SUBMODULES.commit, sha, '--'];
      } else {
        args = ['diff', ...(target === 'staged' ? ['--cached'] : []), ...DIFF_FLAGS, SUBMODULES[target], '--'];
      }
      const r = await git.run(args, maxBytes);
      if ('outcome' in r) return r.outcome;
      const out = r.result.stdout;
      const response = (n: number): Record<string, unknown> => {
        const diff = lenientUtf8(utf8Prefix(out, n));
        return { diff, bytes: Buffer.byteLength(diff), truncated: r.result.stopped || out.length > n };
      };
      // Fewer bytes of the diff when the response (escaped as JSON) would not fit the host's output cap.
      const max = Math.min(maxBytes, out.length);
      return ok(fitOutput(ctx.limits.maxOutputBytes, max, response) ?? response(max));
    }),
};
