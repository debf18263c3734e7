#!/usr/bin/env bash
# skillctl run, side by side in one hyperfine run:
#  - a trivial built-in entrypoint (fs.read_text of a 6-byte file, default policy, the default
#    audit log) against `skillctl --version` (target: within 1.3x);
#  - the same under a YAML policy file, which loads the heavy half of the engine (the YAML parser
#    comes with dist/cmd/run-full.cjs), for comparison;
#  - a trivial node entrypoint (fixtures/run/node-trivial, default sandbox) against running
#    `node main.js` directly plus `skillctl --version` (target: within 1.3x of their sum).
# On a shared, busy machine run it as root under real-time scheduling, so that other jobs cannot
# preempt it: `chrt -f 10 bash bench/run.sh` (docs/performance.md).
# Last measured (Node 20.20, 2 shared cores, chrt -f 10, medians of 60): --version 83.3 ms, run
# built-in 101.6 ms (1.22x; 1.16x-1.26x over three runs of the pair alone), under a YAML policy
# 115.8 ms (1.39x), node main.js 77.0 ms, run node 178.9 ms (1.12x of node main.js + --version).
source "$(dirname "$0")/lib.sh"
AUDIT=bench/out/run-audit.jsonl
POLICY=bench/out/read-only.policy.yaml
printf 'version: 1\npermissions:\n  fs.read: ["%s"]\n' "$PWD" > "$POLICY"
rm -f "$AUDIT"
$NODE bin/skillctl.js run fs.read_text --input bench/inputs/fs-read-text.json --audit "$AUDIT" >/dev/null \
  || { echo "the fs.read_text built-in is needed (the default bundle)"; exit 2; }
hyperfine -N --warmup 10 --runs ${RUNS:-60} \
  "$NODE bin/skillctl.js --version" \
  "$NODE bin/skillctl.js run fs.read_text --input bench/inputs/fs-read-text.json" \
  "$NODE bin/skillctl.js run fs.read_text --input bench/inputs/fs-read-text.json --policy $POLICY" \
  "$NODE fixtures/run/node-trivial/main.js" \
  "$NODE bin/skillctl.js run ./fixtures/run/node-trivial --audit $AUDIT" \
  --export-json bench/out/run.json "$@"
$NODE -e '
const r = require("./bench/out/run.json").results;
const [version, builtin, yamlPolicy, nodeDirect, nodeRun] = r.map((x) => x.median * 1000);
const f = (n) => n.toFixed(1) + " ms";
console.log(`cpu (user+system) means: ${r.map((x) => f((x.user + x.system) * 1000)).join(", ")}`);
console.log(`medians: --version ${f(version)}, run builtin ${f(builtin)}, with a YAML policy ${f(yamlPolicy)}, node main.js ${f(nodeDirect)}, run node ${f(nodeRun)}`);
console.log(`builtin: ${(builtin / version).toFixed(2)}x of --version (target <= 1.3x); with a YAML policy ${(yamlPolicy / version).toFixed(2)}x`);
console.log(`node: ${(nodeRun / (nodeDirect + version)).toFixed(2)}x of node main.js + --version (target <= 1.3x)`);
'
