#!/usr/bin/env bash
# `registry list` and `registry load` on a registry of 1,000 capabilities, side by side with
# `skillctl --version` in one hyperfine run (target: both within 1.5x of --version). On a shared,
# busy machine run it as root under real-time scheduling: `chrt -f 10 bash bench/registry-1000.sh`.
source "$(dirname "$0")/lib.sh"
scratch
"$NODE" bench/gen-registry.mjs "$DIR" 1000
R="$DIR/registry"
hyperfine -N --warmup 10 --runs ${RUNS:-40} \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js registry list --json --registry $R" \
  "$NODE bin/skillctl.js registry load --json --registry $R cap_0500" \
  "$NODE bin/skillctl.js registry match --json --registry $R weigh-in topic 500" \
  --export-json bench/out/registry-1000.json "$@"
"$NODE" bench/summary.mjs bench/out/registry-1000.json
