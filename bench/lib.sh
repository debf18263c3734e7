# Sourced by every bench/*.sh: strict mode, the repository root as working directory, bench/out/
# for hyperfine's JSON, hyperfine required, NODE (default `node`). `scratch` makes a temporary
# directory (in $DIR) removed when the script exits.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p bench/out
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
NODE=${NODE:-node}
scratch() {
  DIR=$(mktemp -d)
  trap 'rm -rf "$DIR"' EXIT
}
