#!/bin/sh
# The pre-merge gate seed 002 names: every pin in pins/skills.lock.json must verify.
# Runs `skillctl verify-pins` on the repository that holds this script; arguments are passed on
# (e.g. --json). MIN_SIGNERS, as in provenact's script, raises the signers required.
# Exit status: 0 all pins verified, 1 findings, 2 the lock cannot be read.
set -eu
repo=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$repo"
set -- verify-pins ${MIN_SIGNERS:+--min-signers "$MIN_SIGNERS"} "$@"
if [ -n "${SKILLCTL:-}" ]; then
  exec $SKILLCTL "$@"
elif [ -f "$repo/bin/skillctl.js" ]; then
  exec node "$repo/bin/skillctl.js" "$@"
else
  exec skillctl "$@"
fi
