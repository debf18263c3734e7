#!/usr/bin/env bash
# push and pull oci:// of a generated 100 MB bundle through the real CNCF distribution registry
# (docker-registry) on loopback, side by side with `skopeo copy` of the same layer in one
# hyperfine run each; the peak memory of each (/usr/bin/time -v); and a cache-hit pull by digest
# of a small skill against `skillctl --version`.
# Targets: push and pull within 1.3x of skopeo; cache-hit pull within 1.3x of --version.
# BEFORE=<another checkout, built> adds that build's push and pull to the same hyperfine runs, so
# a change is measured side by side with what it replaces (and with skopeo) under one load.
#   RUNS=3 chrt -f 10 bash bench/oci.sh
#   BEFORE=/tmp/before RUNS=3 chrt -f 10 bash bench/oci.sh
source "$(dirname "$0")/lib.sh"
command -v skopeo >/dev/null || { echo "skopeo is needed (apt-get install skopeo)"; exit 2; }
[ -x /usr/bin/docker-registry ] || { echo "docker-registry is needed (apt-get install docker-registry)"; exit 2; }
source "$(dirname "$0")/lib-registry.sh"
mkdir -p "$DIR/bundle" "$DIR/out" "$DIR/docker"
"$NODE" bench/gen-pack-bundle.mjs "$DIR/bundle" 100
$SK pack --quiet "$DIR/bundle" --out "$DIR/out"
TGZ=$(ls "$DIR"/out/*.tgz)
# The same artifact as an OCI layout, for skopeo: pushed once by skillctl, copied out by skopeo.
$SK push --quiet "$TGZ" "oci://$HOST/seed/big:1" > /dev/null
skopeo copy -q --src-tls-verify=false "docker://$HOST/seed/big:1" "oci:$DIR/layout:big"
# Pull first, while seed/big is there. Fresh cache and destination for every run.
BEFORE_PULL=() BEFORE_PUSH=() SKB=
if [ -n "${BEFORE:-}" ]; then
  [ -f "$BEFORE/bin/skillctl.js" ] || { echo "$BEFORE has no bin/skillctl.js"; exit 2; }
  SKB="$NODE $BEFORE/bin/skillctl.js"
  BEFORE_PULL=(-n "before: skillctl pull" "$SKB pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled")
  BEFORE_PUSH=(-n "before: skillctl push" "$SKB push --quiet $TGZ oci://$HOST/push/big:1")
fi
hyperfine --warmup 1 --runs ${RUNS:-5} \
  --prepare "rm -rf $DIR/cache $DIR/pulled $DIR/layout-pulled" \
  -n "skillctl pull (fetch, verify, unpack)" "$SK pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled" \
  "${BEFORE_PULL[@]}" \
  -n "skopeo copy docker:// -> oci:" "skopeo copy -q --src-tls-verify=false docker://$HOST/seed/big:1 oci:$DIR/layout-pulled:big" \
  --export-json bench/out/oci-pull.json
# Every upload starts with no repository at all, so every blob is sent: skopeo remembers where a
# blob was seen (its blob-info cache, /var/lib/containers/cache for root) and would otherwise mount
# it from that repository instead of uploading it.
REPOS=$DIR/storage/docker/registry/v2/repositories
hyperfine --warmup 1 --runs ${RUNS:-5} \
  --prepare "rm -rf $REPOS" \
  -n "skillctl push (archive)" "$SK push --quiet $TGZ oci://$HOST/push/big:1" \
  "${BEFORE_PUSH[@]}" \
  -n "skopeo copy oci: -> docker://" "skopeo copy -q --dest-tls-verify=false oci:$DIR/layout:big docker://$HOST/push/big:1" \
  --export-json bench/out/oci-push.json
$SK push --quiet "$TGZ" "oci://$HOST/seed/big:1" > /dev/null
echo "== peak memory (maximum resident set size, KiB)"
# Each command with an empty cache and destination (a pull that found the layer cached would
# not download it) and no pushed repository.
for c in "$SK push --quiet $TGZ oci://$HOST/push/big:1" "$SK pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled" ${SKB:+"$SKB push --quiet $TGZ oci://$HOST/push/big:1"} ${SKB:+"$SKB pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled"} "skopeo copy -q --src-tls-verify=false docker://$HOST/seed/big:1 oci:$DIR/layout-mem:big"; do
  rm -rf "$REPOS/push" "$DIR/cache" "$DIR/pulled" "$DIR/layout-mem"
  /usr/bin/time -v $c 2>&1 >/dev/null | awk -v c="$c" '/Maximum resident/ {print $6, c}'
done
# Cache hit: a small skill pulled by digest, already cached and already in place.
DIGEST=$($SK push --json manifests/default/fs.read_text "oci://$HOST/small/fs.read_text:1" | "$NODE" -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).digest))")
$SK pull --quiet "oci://$HOST/small/fs.read_text@$DIGEST" --out "$DIR/small"
hyperfine --warmup 3 --runs ${RUNS_SMALL:-20} \
  -n "skillctl pull @digest (cache hit)" "$SK pull --quiet oci://$HOST/small/fs.read_text@$DIGEST --out $DIR/small" \
  ${SKB:+-n "before: pull @digest (cache hit)" "$SKB pull --quiet oci://$HOST/small/fs.read_text@$DIGEST --out $DIR/small"} \
  -n "skillctl --version" "$SK --version" \
  --export-json bench/out/oci-cache-hit.json
