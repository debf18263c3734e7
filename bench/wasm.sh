#!/usr/bin/env bash
# The wasm runtime, side by side in hyperfine runs:
#  - `run` of a small wasm skill (fixtures/wasm/echo-input.wat: the input back as output) against
#    `skillctl --version` (target: within 1.3x);
#  - a compute-bound module (fixtures/wasm/compute-fnv.wat: FNV-1a over 16 MiB) with fuel on and
#    off, through the library (target: metered within 2x of unmetered).
# Figures in docs/performance.md ("WebAssembly skills").
# BASE=<a checkout of an earlier commit, built> adds its `run` to the first comparison, side by
# side (before/after). Runs under `chrt -f 10` where the machine allows it, so that other load on
# a shared machine moves the figures less.
source "$(dirname "$0")/lib.sh"
scratch
PRIO=()
if command -v chrt >/dev/null && chrt -f 10 true 2>/dev/null; then PRIO=(chrt -f 10); fi
BEFORE=()
if [ -n "${BASE:-}" ]; then BEFORE=("$NODE $BASE/bin/skillctl.js run $DIR/echo-input --input $DIR/in.json --no-audit"); fi
$NODE bench/gen-wasm.mjs "$DIR" echo-input compute-fnv
printf '{"path":"x"}' > "$DIR/in.json"
$NODE bin/skillctl.js run "$DIR/echo-input" --input "$DIR/in.json" --no-audit >/dev/null || { echo "the wasm bundle does not run"; exit 2; }
uptime
"${PRIO[@]}" hyperfine -N --warmup 5 --runs ${RUNS:-30} \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js run $DIR/echo-input --input $DIR/in.json --no-audit" \
  "${BEFORE[@]}" \
  --export-json bench/out/wasm-run.json
"${PRIO[@]}" hyperfine -N --warmup 2 --runs ${RUNS_FUEL:-10} \
  "$NODE bench/wasm-fuel.mjs $DIR/compute-fnv off" \
  "$NODE bench/wasm-fuel.mjs $DIR/compute-fnv on" \
  --export-json bench/out/wasm-fuel.json
$NODE -e '
const run = require("./bench/out/wasm-run.json").results.map((x) => x.median * 1000);
const fuel = require("./bench/out/wasm-fuel.json").results.map((x) => x.median * 1000);
const f = (n) => n.toFixed(1) + " ms";
console.log(`medians: --version ${f(run[0])}, run wasm ${f(run[1])}: ${(run[1] / run[0]).toFixed(2)}x (target <= 1.3x)`);
if (run.length > 2) console.log(`before (BASE): run wasm ${f(run[2])}: ${(run[2] / run[0]).toFixed(2)}x`);
console.log(`compute-bound: unmetered ${f(fuel[0])}, metered ${f(fuel[1])}: ${(fuel[1] / fuel[0]).toFixed(2)}x (target <= 2x)`);
'
