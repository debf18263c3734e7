#!/usr/bin/env bash
# pull skill:// of a skill of 1,000 files (4 MiB) from an MCP server over stdio, against reading
# and hashing the same files locally, side by side in one hyperfine run. Three local baselines:
# skillctl validate of the folder (reads and hashes every file, and checks the skill as a pull
# does); a bare node script that only reads and hashes them; and coreutils' sha256sum of every
# file (the issue's words, "reading and hashing the same files locally", with no node start); and,
# because a pull must also create every file, which the others do not, coreutils' cp -r of the
# folder (creating 1,000 files is most of a pull's time on a disk where each costs ~0.5 ms).
# Target: pull within 1.5x of the local read and hash. Two servers: skillctl's own
# (`skillctl mcp --skills`), and the SDK-based test server (test/helpers/mcp-skills-server.ts, so
# `node scripts/build.mjs` must have run). With BEFORE=<another checkout, built>, a pull with its
# skillctl (client and server) runs in the same hyperfine run, beside this one's.
source "$(dirname "$0")/lib.sh"
scratch
mkdir -p "$DIR/served" "$DIR/proj"
"$NODE" bench/gen-mcp-skill.mjs "$DIR/served" 1000
SERVER="$NODE $PWD/dist/test/helpers/mcp-skills-server.js --dir $DIR/served"
OWN="$NODE $PWD/bin/skillctl.js mcp --no-audit --skills $DIR/served"
# skillctl mcp trusts no file time younger than 2 s (served-walk.ts): a project's files are older.
sleep 2.5
PREV=()
if [ -n "${BEFORE:-}" ]; then
  [ -f "$BEFORE/bin/skillctl.js" ] || { echo "$BEFORE has no bin/skillctl.js"; exit 2; }
  PREV=(-n "before: skillctl pull skill:// from skillctl mcp (1,000 files, stdio)" "cd $DIR/proj && $NODE $BEFORE/bin/skillctl.js pull --quiet skill://bench-skill/SKILL.md --mcp '$NODE $BEFORE/bin/skillctl.js mcp --no-audit --skills $DIR/served' --out vendor")
fi
HASH="const fs=require('fs'),c=require('crypto'),p=require('path');for(const e of fs.readdirSync(process.argv[1],{recursive:true,withFileTypes:true}))if(e.isFile())c.createHash('sha256').update(fs.readFileSync(p.join(e.parentPath,e.name))).digest('hex')"
hyperfine --warmup 1 --runs ${RUNS:-10} \
  --prepare "rm -rf $DIR/proj/vendor $DIR/proj/.skillctl" \
  "${PREV[@]}" \
  -n "skillctl pull skill:// from skillctl mcp (1,000 files, stdio)" "cd $DIR/proj && $NODE $PWD/bin/skillctl.js pull --quiet skill://bench-skill/SKILL.md --mcp '$OWN' --out vendor" \
  -n "skillctl pull skill:// from the SDK test server (1,000 files, stdio)" "cd $DIR/proj && $NODE $PWD/bin/skillctl.js pull --quiet skill://bench-skill/SKILL.md --mcp '$SERVER' --out vendor" \
  -n "skillctl validate (same files, local)" "$NODE bin/skillctl.js validate --quiet $DIR/served/bench-skill" \
  -n "node: read + sha256 (same files, local)" "$NODE -e \"$HASH\" $DIR/served/bench-skill" \
  -n "sha256sum (same files, local)" "find $DIR/served/bench-skill -type f -print0 | xargs -0 sha256sum > /dev/null" \
  -n "cp -r (writes the same files, local)" "rm -rf $DIR/copy && cp -r $DIR/served/bench-skill $DIR/copy" \
  --export-json bench/out/pull-mcp.json "$@"
