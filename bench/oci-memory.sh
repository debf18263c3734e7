#!/usr/bin/env bash
# Peak memory of push and pull oci:// of a 1 GiB layer (a generated Agent Skills folder holding
# 1 GiB of incompressible data, stored gzip so the layer itself is 1 GiB) through the real CNCF
# distribution registry (docker-registry) on loopback: maximum resident set size from
# /usr/bin/time -v, beside `skopeo copy` of the same layer.
# Target: below 100 MB for each skillctl command (the layer is streamed, never held whole).
#   MIB=1024 bash bench/oci-memory.sh
#   BEFORE=/tmp/before MIB=1024 bash bench/oci-memory.sh
source "$(dirname "$0")/lib.sh"
command -v skopeo >/dev/null || { echo "skopeo is needed (apt-get install skopeo)"; exit 2; }
[ -x /usr/bin/docker-registry ] || { echo "docker-registry is needed (apt-get install docker-registry)"; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed (apt-get install time)"; exit 2; }
source "$(dirname "$0")/lib-registry.sh"
"$NODE" bench/gen-large-layer.mjs "$DIR/big.tgz" big-layer "${MIB:-1024}"
echo "== peak memory, ${MIB:-1024} MiB layer (maximum resident set size, KiB; wall seconds)"
peak() { /usr/bin/time -f "%M KiB %e s $1" "${@:2}" 2>&1 >/dev/null | tail -1; }
# BEFORE=<another checkout, built> measures that build too, each command with an empty cache and
# destination (and, for push, no repository: a blob the registry has is not sent).
REPOS=$DIR/storage/docker/registry/v2/repositories
fresh() { rm -rf "$DIR/pulled" "$DIR/cache"; }
peak "skillctl push" $SK push --quiet "$DIR/big.tgz" "oci://$HOST/big/layer:1"
fresh; peak "skillctl pull" $SK pull --quiet "oci://$HOST/big/layer:1" --out "$DIR/pulled"
if [ -n "${BEFORE:-}" ]; then
  SKB="$NODE $BEFORE/bin/skillctl.js"
  fresh; peak "before: skillctl pull" $SKB pull --quiet "oci://$HOST/big/layer:1" --out "$DIR/pulled"
  rm -rf "$REPOS/big"; peak "before: skillctl push" $SKB push --quiet "$DIR/big.tgz" "oci://$HOST/big/layer:1"
fi
fresh
peak "skopeo copy docker:// -> oci:" skopeo copy -q --src-tls-verify=false "docker://$HOST/big/layer:1" "oci:$DIR/layout:big"
uptime
