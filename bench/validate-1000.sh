#!/usr/bin/env bash
# Validating 1,000 generated manifests (each a bundle with a script) in one invocation
# (target: under 1.5 s total).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$NODE" bench/gen-manifests.mjs "$DIR" 1000
hyperfine -N --warmup 2 --runs ${RUNS:-10} \
  "$NODE bin/skillctl.js validate --quiet $DIR" \
  --export-json bench/out/validate-1000.json "$@"
