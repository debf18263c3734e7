#!/usr/bin/env bash
# Hostile documents within the 4 MiB bound (issue 20, item 9): a manifest of 40,000 keys (620 KB)
# and one of 200,000 keys, a 600 KB lock with 40,000 extra keys under verify-pins and pin, and a
# manifest of 9,900 unknown keys beside 29,700 keys in x- fields, within the key bound (parsed
# whole, 1,000 findings listed). Target: each well under a second, at the cost of starting Node
# plus reading the bytes (`--version` runs alongside as that floor).
# BASELINE=/path/to/another/checkout (built) measures that checkout too, once per command: before
# this change the 40,000-key manifest took 19 s and the lock 37 s on an idle machine.
source "$(dirname "$0")/lib.sh"
scratch
"$NODE" bench/gen-hostile.mjs "$DIR"
BIN=$PWD/bin/skillctl.js
cmds=(
  -n "--version" "$NODE $BIN --version"
  -n "validate 40,000 keys" "$NODE $BIN validate --quiet $DIR/keys-40k.yaml || true"
  -n "validate 200,000 keys" "$NODE $BIN validate --quiet $DIR/keys-200k.yaml || true"
  -n "validate 9,900 unknown keys (within the bound)" "$NODE $BIN validate --quiet $DIR/keys-within.yaml || true"
  -n "verify-pins, lock with 40,000 extra keys" "cd $DIR/project && $NODE $BIN verify-pins --quiet || true"
  -n "pin --all, lock with 40,000 extra keys" "cd $DIR/project && $NODE $BIN pin --all --quiet || true"
)
hyperfine --warmup 1 --runs ${RUNS:-10} "${cmds[@]}" --export-json bench/out/hostile-documents.json "$@"
if [ -n "${BASELINE:-}" ]; then
  OLD=$BASELINE/bin/skillctl.js
  hyperfine --runs 1 \
    -n "baseline: validate 40,000 keys" "$NODE $OLD validate --quiet $DIR/keys-40k.yaml || true" \
    -n "baseline: verify-pins, lock with 40,000 extra keys" "cd $DIR/project && $NODE $OLD verify-pins --quiet || true" \
    --export-json bench/out/hostile-documents-baseline.json
fi
