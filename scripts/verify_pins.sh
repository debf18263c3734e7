#!/bin/sh
# The pre-merge gate seed 002 names: every pin in pins/skills.lock.json must verify.
# Runs `skillctl verify-pins` on the repository that holds this script; arguments are passed on
# (e.g. --json). MIN_SIGNERS, as in provenact's script, raises the signers required.
# Inside a git hook it verifies what the hook is about, never the working tree: the index
# (--staged) when git set GIT_INDEX_FILE (a pre-commit hook) or the pre-commit framework runs it
# (PRE_COMMIT), the pushed commit (--rev) at the framework's pre-push stage (docs/hooks.md).
# When the framework names a range (PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF: pre-push, or
# `pre-commit run --from-ref A --to-ref B` in CI), the lock is also compared with the lock at its
# start (--base), as scripts/pre-commit-hook.sh does: a lock vouches for itself, so a change that
# adds its own key and re-signs a tampered skill passes every check of its own tree. None for an
# all-zeros PRE_COMMIT_FROM_REF, at post-checkout, or when the arguments name --base themselves;
# SKILLCTL_HOOK_NO_BASE=1, set by whoever runs the hook, accepts an intended change of the lock's
# trust (a key rotation). Which base, if any, goes to stderr. The same steps as
# pre-commit-hook.sh's, written again: repositories copy this script alone, so it sources nothing.
# Exit status: 0 all pins verified, 1 findings, 2 cannot verify (no lock, no skillctl).
set -eu
repo=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$repo"
# Only 1 opts out: a typo (`true`, `yes`) would otherwise look like an opt-out that did nothing.
case ${SKILLCTL_HOOK_NO_BASE:-} in
  '' | 1) ;;
  *)
    echo "verify_pins.sh: SKILLCTL_HOOK_NO_BASE is 1 (accept a change of the lock's trust) or unset, not '$SKILLCTL_HOOK_NO_BASE'" >&2
    exit 2
    ;;
esac
base=
why=
case " $* " in
  *" --staged "* | *" --rev "* | *" --rev="*) ;;
  *)
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
    elif [ -n "${GIT_INDEX_FILE:-}" ] || [ -n "${PRE_COMMIT:-}" ]; then
      set -- --staged "$@"
    fi
    ;;
esac
case " $* " in
  *" --base "* | *" --base="*)
    # The caller named the base: theirs is compared with, not the range's start.
    base=
    why=
    ;;
esac
if [ -n "$base" ] && [ "${SKILLCTL_HOOK_NO_BASE:-}" = 1 ]; then
  echo "skillctl verify-pins: SKILLCTL_HOOK_NO_BASE=1: the lock is not compared with base $base; a change of its keys, signers, skill roots or pinned digests is accepted" >&2
elif [ -n "$base" ]; then
  echo "skillctl verify-pins: comparing the lock with base $base (PRE_COMMIT_FROM_REF); SKILLCTL_HOOK_NO_BASE=1 accepts an intended change of its trust" >&2
  set -- --base "$base" "$@"
elif [ -n "$why" ]; then
  echo "skillctl verify-pins: no base to compare the lock with ($why)" >&2
fi
set -- verify-pins ${MIN_SIGNERS:+--min-signers "$MIN_SIGNERS"} "$@"
if [ -n "${SKILLCTL:-}" ]; then
  exec $SKILLCTL "$@"
elif [ -f "$repo/bin/skillctl.js" ]; then
  exec node "$repo/bin/skillctl.js" "$@"
elif [ -x "$repo/node_modules/.bin/skillctl" ]; then
  exec "$repo/node_modules/.bin/skillctl" "$@"
elif command -v skillctl >/dev/null 2>&1; then
  exec skillctl "$@"
fi
echo 'skillctl is not installed in this project: npm install -D skillctl' >&2
exit 2
