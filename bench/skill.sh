#!/usr/bin/env bash
# `skillctl skill --profile daily`, the command agents call most, against `node -e 0`, side by side
# in one hyperfine run (target: within 1.2x of node -e 0). For comparison, the same request through
# the full command (--debug bypasses the fast path; the output is identical), the full command
# without the V8 code cache, and the full command reading a --packs directory (YAML parser loaded).
# On a shared, busy machine run it as root under real-time scheduling so other jobs cannot preempt
# it: `chrt -f 10 bash bench/skill.sh` (docs/performance.md).
source "$(dirname "$0")/lib.sh"
OUT=bench/out/skill.json
hyperfine -N --warmup 10 --runs ${RUNS:-60} \
  "$NODE -e 0" \
  "$NODE bin/skillctl.js skill --profile daily" \
  "$NODE bin/skillctl.js skill --profile daily --debug" \
  "env SKILLCTL_V8_CACHE=off $NODE bin/skillctl.js skill --profile daily --debug" \
  "$NODE bin/skillctl.js skill --profile daily --packs fixtures/packs/operator/valid" \
  --export-json "$OUT" "$@"
"$NODE" bench/summary.mjs "$OUT"
