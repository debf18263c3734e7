#!/usr/bin/env bash
# Two builds of skillctl side by side in one hyperfine run, so a change in the machine's load hits
# both alike: this checkout against another one (a worktree of an older commit, built there):
#
#   git worktree add /tmp/before <commit> && (cd /tmp/before && ln -s "$PWD/node_modules" . && node scripts/build.mjs)
#   bash bench/compare-builds.sh /tmp/before
#
# Measures start-up (`--version`, `validate` of one manifest), a built-in `run`, and verify-pins
# over 1,000 generated unsigned bundles (200 MB). Report medians and the after/before ratios.
source "$(dirname "$0")/lib.sh"
BEFORE=${1:?usage: bench/compare-builds.sh OTHER_CHECKOUT}
[ -f "$BEFORE/bin/skillctl.js" ] || { echo "$BEFORE has no bin/skillctl.js"; exit 2; }
scratch
M=$PWD/manifests/examples/text.stats/skill.yaml
printf 'hello\n' > "$DIR/hello.txt"
printf '{"path":"hello.txt"}' > "$DIR/in.json"
"$NODE" bench/gen-pinned.mjs "$DIR/pins" 1000 200 json 0
for cmd in "--version" "validate $M" "run fs.read_text --input in.json --no-audit"; do
  hyperfine --warmup 5 --runs ${RUNS:-30} \
    -n "before: $cmd" "cd $DIR && $NODE $BEFORE/bin/skillctl.js $cmd" \
    -n "after:  $cmd" "cd $DIR && $NODE $PWD/bin/skillctl.js $cmd" \
    --export-json "bench/out/compare-$(echo "$cmd" | cut -d' ' -f1).json"
done
hyperfine --warmup 1 --runs ${RUNS_PINS:-8} \
  -n "before: verify-pins" "cd $DIR/pins && $NODE $BEFORE/bin/skillctl.js verify-pins --quiet" \
  -n "after:  verify-pins" "cd $DIR/pins && $NODE $PWD/bin/skillctl.js verify-pins --quiet" \
  -n "openssl dgst -sha256" "cd $DIR/pins && xargs -0 -a files.txt openssl dgst -sha256 > /dev/null" \
  --export-json bench/out/compare-verify-pins.json
