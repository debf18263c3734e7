#!/bin/sh
# The pre-commit framework's hooks (.pre-commit-hooks.yaml, `language: script`; docs/hooks.md).
# pre-commit runs this file from its clone of skillctl, in the repository being checked: it runs
# that repository's own skillctl (node_modules/.bin, found from here upwards, else PATH).
#   verify-pins: at the pre-push stage pre-commit names the commit being pushed, whose tree is
#     verified; at any other stage the index, the tree being committed.
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
if [ "$hook" = validate ]; then
  exec "$skillctl" validate "$@"
elif [ "$hook" != verify-pins ]; then
  echo "pre-commit-hook.sh: unknown hook $hook (verify-pins or validate)" >&2
  exit 2
fi
if [ -n "${PRE_COMMIT_TO_REF:-}" ]; then
  set -- --rev "$PRE_COMMIT_TO_REF" "$@"
elif [ -n "${PRE_COMMIT_REMOTE_NAME:-}" ] && [ -n "${PRE_COMMIT_LOCAL_BRANCH:-}" ]; then
  # A push of a new branch from its root commit: pre-commit names the branch, not a range.
  set -- --rev "$PRE_COMMIT_LOCAL_BRANCH" "$@"
else
  set -- --staged "$@"
fi
exec "$skillctl" verify-pins "$@"
