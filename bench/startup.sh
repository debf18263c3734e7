#!/usr/bin/env bash
# Start-up: `skillctl --version` and `skillctl validate` of one manifest against `node -e 0`,
# side by side in one hyperfine run (targets: within 1.3x of node -e 0).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
M=manifests/examples/text.stats/skill.yaml
hyperfine -N --warmup 10 --runs ${RUNS:-60} \
  "$NODE -e 0" \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js validate $M" \
  --export-json bench/out/startup.json "$@"
