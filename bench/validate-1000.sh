#!/usr/bin/env bash
# Validating 1,000 generated manifests (each a bundle with a script) in one invocation
# (target: under 1.5 s total).
source "$(dirname "$0")/lib.sh"
scratch
"$NODE" bench/gen-manifests.mjs "$DIR" 1000
hyperfine -N --warmup 2 --runs ${RUNS:-10} \
  "$NODE bin/skillctl.js validate --quiet $DIR" \
  --export-json bench/out/validate-1000.json "$@"
