/**
 * A revision that names one ref, or is refused. git resolves a short name by the first of
 * `refs/<name>`, `refs/tags/<name>`, `refs/heads/<name>`, `refs/remotes/<name>`,
 * `refs/remotes/<name>/HEAD` that exists, and `rev-parse --verify --quiet` does not even warn
 * when several do. A checkout with every tag of the repository (actions/checkout with
 * `fetch-depth: 0`) thus resolves `--base origin/main` to a tag named `origin/main` when one
 * exists: whoever may push a tag could point it at the pull request itself, and the lock would be
 * compared with its own. So a name two refs answer to is not guessed at: the caller gives the
 * full ref name or a commit id. A short commit id that a ref is also named is refused likewise.
 */
import { firstLine, unreadable, type Git } from '../../git-run.js';

/** The ref name a revision starts with: up to its first `^`, `~`, `:` or `@{` (`origin/main` of `origin/main~1`). */
function leadingName(rev: string): string {
  const m = /^(.*?)(?:[~^:]|@\{|$)/s.exec(rev);
  return m?.[1] ?? '';
}

/** The refs git would try for `name`, in its order. */
function candidates(name: string): string[] {
  return [...(name.startsWith('refs/') ? [name] : []), `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`];
}

/**
 * Throws GIT_TREE_UNREADABLE when the ref name `rev` starts with matches more than one ref. A
 * full object id, `@` and the pseudo-refs of the git directory (`HEAD`, `FETCH_HEAD`, which git
 * reads before any ref) name what they name.
 */
export async function refuseAmbiguousRev(git: Git, rev: string): Promise<void> {
  const name = leadingName(rev);
  if (name === '' || name === '@' || /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(name) || /^[A-Z][A-Z0-9_]*HEAD$/.test(name)) return;
  const wanted = candidates(name);
  const r = await git.run(['for-each-ref', '--format=%(refname)', '--', ...wanted], 1024 * 1024);
  if (r.code !== 0 || r.stopped) throw unreadable(`git for-each-ref failed: ${firstLine(r)}`);
  const found = new Set(r.stdout.toString('utf8').split('\n'));
  const matched = wanted.filter((c) => found.has(c));
  // A short commit id is looked up as a ref first: a tag named `3f1c2ab` outranks the commit.
  if (matched.length === 1 && /^[0-9a-f]{4,63}$/.test(name)) {
    const objects = await git.run(['rev-parse', `--disambiguate=${name}`], 64 * 1024);
    if (objects.code === 0 && objects.stdout.length > 0) matched.push(`the object id ${name}`);
  }
  if (matched.length > 1) {
    throw unreadable(`${rev} is ambiguous: ${name} names ${matched.join(' and ')}, and git would take ${matched[0] ?? ''}`, 'name the ref in full (refs/heads/…, refs/remotes/…, refs/tags/…) or give the full commit id');
  }
}
