#!/usr/bin/env bash
# push and pull oci:// of a generated 100 MB bundle through the real CNCF distribution registry
# (docker-registry) on loopback, side by side with `skopeo copy` of the same layer in one
# hyperfine run each; the peak memory of each (/usr/bin/time -v); and a cache-hit pull by digest
# of a small skill against `skillctl --version`.
# Targets: push and pull within 1.3x of skopeo; cache-hit pull within 1.3x of --version.
#   RUNS=3 bash bench/oci.sh
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
hyperfine --warmup 1 --runs ${RUNS:-5} \
  --prepare "rm -rf $DIR/cache $DIR/pulled $DIR/layout-pulled" \
  -n "skillctl pull (fetch, verify, unpack)" "$SK pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled" \
  -n "skopeo copy docker:// -> oci:" "skopeo copy -q --src-tls-verify=false docker://$HOST/seed/big:1 oci:$DIR/layout-pulled:big" \
  --export-json bench/out/oci-pull.json
# Every upload starts with no repository at all, so every blob is sent: skopeo remembers where a
# blob was seen (its blob-info cache, /var/lib/containers/cache for root) and would otherwise mount
# it from that repository instead of uploading it.
REPOS=$DIR/storage/docker/registry/v2/repositories
hyperfine --warmup 1 --runs ${RUNS:-5} \
  --prepare "rm -rf $REPOS" \
  -n "skillctl push (archive)" "$SK push --quiet $TGZ oci://$HOST/push/big:1" \
  -n "skopeo copy oci: -> docker://" "skopeo copy -q --dest-tls-verify=false oci:$DIR/layout:big docker://$HOST/push/big:1" \
  --export-json bench/out/oci-push.json
$SK push --quiet "$TGZ" "oci://$HOST/seed/big:1" > /dev/null
echo "== peak memory (maximum resident set size, KiB)"
rm -rf "$REPOS/push" "$DIR/cache" "$DIR/pulled"
for c in "$SK push --quiet $TGZ oci://$HOST/push/big:1" "$SK pull --quiet oci://$HOST/seed/big:1 --out $DIR/pulled" "skopeo copy -q --src-tls-verify=false docker://$HOST/seed/big:1 oci:$DIR/layout-mem:big"; do
  /usr/bin/time -v $c 2>&1 >/dev/null | awk -v c="$c" '/Maximum resident/ {print $6, c}'
done
# Cache hit: a small skill pulled by digest, already cached and already in place.
DIGEST=$($SK push --json manifests/default/fs.read_text "oci://$HOST/small/fs.read_text:1" | "$NODE" -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).digest))")
$SK pull --quiet "oci://$HOST/small/fs.read_text@$DIGEST" --out "$DIR/small"
hyperfine --warmup 3 --runs ${RUNS_SMALL:-20} \
  -n "skillctl pull @digest (cache hit)" "$SK pull --quiet oci://$HOST/small/fs.read_text@$DIGEST --out $DIR/small" \
  -n "skillctl --version" "$SK --version" \
  --export-json bench/out/oci-cache-hit.json
