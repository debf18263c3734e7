#!/usr/bin/env bash
# What a user's production install weighs: the packed tarball (`npm pack`, built first unless
# NO_BUILD=1) installed with `npm install --omit=dev` into an empty project, as a user would from
# the registry (dependencies come from the npm registry), then `du -sb` of its node_modules, and
# the biggest packages in it. Target: under 30 MB (docs/performance.md). Not a timing: no hyperfine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
[ "${NO_BUILD:-}" = 1 ] || node scripts/build.mjs >/dev/null
tarball=$(npm pack --ignore-scripts --silent --pack-destination "$DIR" 2>/dev/null | tail -n 1)
mkdir "$DIR/project"
cd "$DIR/project"
echo '{"name":"install-size","version":"0.0.0","private":true}' >package.json
npm install --omit=dev --no-audit --no-fund --silent "$DIR/$tarball" >/dev/null 2>&1
bytes=$(du -sb node_modules | cut -f1)
tar_bytes=$(stat -c %s "$DIR/$tarball")
printf 'tarball %s: %.1f MB (%d bytes)\n' "$tarball" "$(echo "$tar_bytes / 1000000" | bc -l)" "$tar_bytes"
packages=$(find node_modules -name package.json -printf '%h\n' | grep -cE 'node_modules/(@[^/]+/)?[^/@][^/]*$')
printf 'production install: %.1f MB (%d bytes) in %d packages\n' "$(echo "$bytes / 1000000" | bc -l)" "$bytes" "$packages"
echo 'largest packages (du -sb):'
for p in node_modules/* node_modules/@*/*; do
  case $p in node_modules/@*/*|node_modules/[!@]*) [ -f "$p/package.json" ] && du -sb "$p" ;; esac
done | sort -rn | head -n "${TOP:-12}" | awk '{ printf "  %7.2f MB  %s\n", $1 / 1000000, substr($2, 14) }'
