#!/usr/bin/env bash
# Start-up: `skillctl --version` and `skillctl validate` of one manifest against `node -e 0`,
# side by side in one hyperfine run (targets: within 1.3x of node -e 0).
source "$(dirname "$0")/lib.sh"
M=manifests/examples/text.stats/skill.yaml
hyperfine -N --warmup 10 --runs ${RUNS:-60} \
  "$NODE -e 0" \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js validate $M" \
  --export-json bench/out/startup.json "$@"
