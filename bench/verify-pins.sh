#!/usr/bin/env bash
# verify-pins over a lock of 1,000 generated bundles holding 200 MB (signed by two signers), side
# by side with sha256sum and openssl over the same files in one hyperfine run. Targets: faster
# than sha256sum, within 2x of `openssl dgst -sha256` (this CPU's hashing limit, SHA extensions).
# FORMAT=yaml measures skill.yaml manifests instead of skill.json; SIGNERS=0 unsigned bundles
# (hashing only, like the baselines), default 2 signatures per bundle.
source "$(dirname "$0")/lib.sh"
FORMAT=${FORMAT:-json}
SIGNERS=${SIGNERS:-2}
scratch
"$NODE" bench/gen-pinned.mjs "$DIR" 1000 200 "$FORMAT" "$SIGNERS"
BIN=$PWD/bin/skillctl.js
hyperfine --warmup 2 --runs ${RUNS:-15} \
  -n "skillctl verify-pins ($FORMAT, $SIGNERS signers)" "cd $DIR && $NODE $BIN verify-pins --quiet" \
  -n "sha256sum" "cd $DIR && xargs -0 -a files.txt sha256sum > /dev/null" \
  -n "openssl dgst -sha256" "cd $DIR && xargs -0 -a files.txt openssl dgst -sha256 > /dev/null" \
  --export-json bench/out/verify-pins-$FORMAT-$SIGNERS.json "$@"
