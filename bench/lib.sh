# Sourced by every bench/*.sh: strict mode, the repository root as working directory, bench/out/
# for hyperfine's JSON, hyperfine required, NODE (default `node`). `scratch` makes a temporary
# directory (in $DIR) removed when the script exits.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BENCH_ROOT=$PWD
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
scratch() {
  DIR=$(mktemp -d)
  trap 'rm -rf "$DIR"' EXIT
}
# side_by_side NAME LABEL_A LABEL_B CMD_A CMD_B [hyperfine options...]: the two commands in one
# hyperfine run (bench/out/NAME.json), then their medians, the difference and the ratio B/A.
side_by_side() {
  local name=$1 a=$2 b=$3 cmd_a=$4 cmd_b=$5
  shift 5
  local out="$BENCH_ROOT/bench/out/$name.json"
  hyperfine -N --warmup 5 --runs "${RUNS:-30}" "$cmd_a" "$cmd_b" --export-json "$out" "$@"
  $NODE -e '
const [a, b] = require(process.argv[1]).results.map((x) => x.median * 1000);
console.log(`medians: ${process.argv[2]} ${a.toFixed(1)} ms, ${process.argv[3]} ${b.toFixed(1)} ms: ${b >= a ? "+" : ""}${(b - a).toFixed(1)} ms (${(b / a).toFixed(2)}x)`);
' "$out" "$a" "$b"
}
