#!/bin/sh
# The pre-merge gate seed 002 names: every pin in pins/skills.lock.json must verify.
# Runs `skillctl verify-pins` on the repository that holds this script; arguments are passed on
# (e.g. --json). MIN_SIGNERS, as in provenact's script, raises the signers required.
# Inside a git hook it verifies what the hook is about, never the working tree: the index
# (--staged) when git set GIT_INDEX_FILE (a pre-commit hook) or the pre-commit framework runs it
# (PRE_COMMIT), the pushed commit (--rev) at the framework's pre-push stage (docs/hooks.md).
# Exit status: 0 all pins verified, 1 findings, 2 cannot verify (no lock, no skillctl).
set -eu
repo=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$repo"
case " $* " in
  *" --staged "* | *" --rev "* | *" --rev="*) ;;
  *)
    if [ -n "${PRE_COMMIT_TO_REF:-}" ]; then
      set -- --rev "$PRE_COMMIT_TO_REF" "$@"
    elif [ -n "${GIT_INDEX_FILE:-}" ] || [ -n "${PRE_COMMIT:-}" ]; then
      set -- --staged "$@"
    fi
    ;;
esac
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
