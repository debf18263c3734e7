#!/usr/bin/env bash
# skillctl run, side by side in one hyperfine run:
#  - a trivial built-in entrypoint (fs.read_text of a 6-byte file) against `skillctl --version`
#    (target: within 1.3x);
#  - a trivial node entrypoint (fixtures/run/node-trivial, default sandbox) against running
#    `node main.js` directly plus `skillctl --version` (target: within 1.3x of their sum).
# Both runs append their audit record, as a default run does.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
AUDIT=bench/out/run-audit.jsonl
rm -f "$AUDIT"
$NODE bin/skillctl.js run fs.read_text --input bench/inputs/fs-read-text.json --audit "$AUDIT" >/dev/null \
  || { echo "the fs.read_text built-in is needed (the default bundle)"; exit 2; }
hyperfine -N --warmup 10 --runs ${RUNS:-60} \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js run fs.read_text --input bench/inputs/fs-read-text.json --audit $AUDIT" \
  "$NODE fixtures/run/node-trivial/main.js" \
  "$NODE bin/skillctl.js run ./fixtures/run/node-trivial --audit $AUDIT" \
  --export-json bench/out/run.json "$@"
$NODE -e '
const r = require("./bench/out/run.json").results.map((x) => x.median * 1000);
const [version, builtin, nodeDirect, nodeRun] = r;
const f = (n) => n.toFixed(1) + " ms";
const cpu = require("./bench/out/run.json").results.map((x) => (x.user + x.system) * 1000);
console.log(`cpu (user+system) means: ${cpu.map(f).join(", ")}`);
console.log(`medians: --version ${f(version)}, run builtin ${f(builtin)}, node main.js ${f(nodeDirect)}, run node ${f(nodeRun)}`);
console.log(`builtin: ${(builtin / version).toFixed(2)}x of --version (target <= 1.3x)`);
console.log(`node: ${(nodeRun / (nodeDirect + version)).toFixed(2)}x of node main.js + --version (target <= 1.3x)`);
'
