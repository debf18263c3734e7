#!/usr/bin/env bash
# pack of a generated 100 MB bundle against `tar --sort=name -czf` of the same tree, side by side
# in one hyperfine run. Target: within 1.2x of tar.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/bundle" "$DIR/out"
"$NODE" bench/gen-pack-bundle.mjs "$DIR/bundle" 100
hyperfine --warmup 1 --runs ${RUNS:-10} \
  -n "skillctl pack" "$NODE bin/skillctl.js pack --quiet $DIR/bundle --out $DIR/out" \
  -n "tar --sort=name -czf" "tar --sort=name -czf $DIR/out/tar.tgz -C $DIR/bundle ." \
  --export-json bench/out/pack.json "$@"
