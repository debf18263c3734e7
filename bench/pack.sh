#!/usr/bin/env bash
# pack of a generated 100 MB bundle against `tar --sort=name -czf` of the same tree, side by side
# in one hyperfine run. Target: within 1.2x of tar.
source "$(dirname "$0")/lib.sh"
scratch
mkdir -p "$DIR/bundle" "$DIR/out"
"$NODE" bench/gen-pack-bundle.mjs "$DIR/bundle" 100
hyperfine --warmup 1 --runs ${RUNS:-10} \
  -n "skillctl pack" "$NODE bin/skillctl.js pack --quiet $DIR/bundle --out $DIR/out" \
  -n "tar --sort=name -czf" "tar --sort=name -czf $DIR/out/tar.tgz -C $DIR/bundle ." \
  --export-json bench/out/pack.json "$@"
