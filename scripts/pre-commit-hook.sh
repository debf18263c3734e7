#!/bin/sh
# The pre-commit framework's hooks (.pre-commit-hooks.yaml, `language: script`; docs/hooks.md).
# pre-commit runs this file from its clone of skillctl, in the repository being checked: it runs
# that repository's own skillctl (node_modules/.bin, found from here upwards, else PATH).
#   verify-pins: at the pre-push stage pre-commit names the commit being pushed, whose tree is
#     verified; at any other stage the index, the tree being committed. When pre-commit names a
#     range (pre-push, `pre-commit run --from-ref A --to-ref B` in CI), the lock is also compared
#     with the lock at its start (--base): a lock vouches for itself, so a change that adds its
#     own key and re-signs a tampered skill passes every check of its own tree. There is no base
#     for a push from a root commit (the remote holds none of the history) or an all-zeros
#     PRE_COMMIT_FROM_REF; SKILLCTL_HOOK_NO_BASE=1, set by whoever runs the hook, accepts an
#     intended change of the lock's trust (a key rotation). Which base, if any, goes to stderr.
#   validate: the skills under the project's skill roots, as pre-commit leaves the working tree
#     (unstaged changes set aside at pre-commit).
# The first argument names the hook; the rest (the hook's `args:`) are passed on.
# Exit status: 0 verified, 1 findings, 2 cannot verify (skillctl missing, lock unreadable).
hook=${1:-verify-pins}
[ $# -gt 0 ] && shift
skillctl=
dir=$(pwd -P)
while [ -z "$skillctl" ]; do
  [ -x "$dir/node_modules/.bin/skillctl" ] && skillctl=$dir/node_modules/.bin/skillctl
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
[ -n "$skillctl" ] || skillctl=$(command -v skillctl) || {
  echo 'skillctl is not installed in this project: npm install -D skillctl' >&2
  exit 2
}
# A skillctl the repository holds is the code of whoever committed it: git writes a tracked
# node_modules/ over npm's ignored one on checkout, so a branch could bring a skillctl that passes all.
if [ -n "$(git ls-files -- node_modules "$skillctl" 2>/dev/null | head -n 1)" ]; then
  echo "skillctl: git tracks node_modules/ or $skillctl in this repository; a committed skillctl is not run (git rm -r --cached node_modules, then npm install)" >&2
  exit 2
fi
if [ "$hook" = validate ]; then
  exec "$skillctl" validate "$@"
elif [ "$hook" != verify-pins ]; then
  echo "pre-commit-hook.sh: unknown hook $hook (verify-pins or validate)" >&2
  exit 2
fi
# Only 1 opts out: a typo (`true`, `yes`) would otherwise look like an opt-out that did nothing,
# or a `0` like one that did; either way the person running the hook should be told.
case ${SKILLCTL_HOOK_NO_BASE:-} in
  '' | 1) ;;
  *)
    echo "pre-commit-hook.sh: SKILLCTL_HOOK_NO_BASE is 1 (accept a change of the lock's trust) or unset, not '$SKILLCTL_HOOK_NO_BASE'" >&2
    exit 2
    ;;
esac
base=
why=
if [ -n "${PRE_COMMIT_TO_REF:-}" ]; then
  set -- --rev "$PRE_COMMIT_TO_REF" "$@"
  if [ -n "${PRE_COMMIT_CHECKOUT_TYPE:-}" ]; then
    # post-checkout: FROM_REF is the HEAD checked out before, not what this commit builds on.
    why='post-checkout: the commit checked out before is not a base'
  else
    case ${PRE_COMMIT_FROM_REF:-} in
      *[!0]*) base=$PRE_COMMIT_FROM_REF ;;
      '') why='PRE_COMMIT_FROM_REF is not set' ;;
      *) why='PRE_COMMIT_FROM_REF is all zeros: no commit before the range' ;;
    esac
  fi
elif [ -n "${PRE_COMMIT_REMOTE_NAME:-}" ] && [ -n "${PRE_COMMIT_LOCAL_BRANCH:-}" ]; then
  # A push of a new branch from its root commit: pre-commit names the branch, not a range.
  set -- --rev "$PRE_COMMIT_LOCAL_BRANCH" "$@"
  why='a push from a root commit: the remote holds none of its history'
else
  set -- --staged "$@"
fi
if [ -n "$base" ] && [ "${SKILLCTL_HOOK_NO_BASE:-}" = 1 ]; then
  echo "skillctl verify-pins: SKILLCTL_HOOK_NO_BASE=1: the lock is not compared with base $base; a change of its keys, signers, skill roots or pinned digests is accepted" >&2
elif [ -n "$base" ]; then
  echo "skillctl verify-pins: comparing the lock with base $base (PRE_COMMIT_FROM_REF); SKILLCTL_HOOK_NO_BASE=1 accepts an intended change of its trust" >&2
  set -- --base "$base" "$@"
elif [ -n "$why" ]; then
  echo "skillctl verify-pins: no base to compare the lock with ($why)" >&2
fi
exec "$skillctl" verify-pins "$@"
