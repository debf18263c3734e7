#!/usr/bin/env bash
# What the egress proxy costs a process run (docs/security.md, "Egress"), side by side in one
# hyperfine run: the same trivial python entrypoint under bubblewrap, without net.http (no
# network namespace to leave: no proxy, no bridge) and with it (the proxy on a Unix socket in
# skillctl, and the bridge, started by skillctl's own node inside the sandbox, ahead of the
# command). The difference is mostly the bridge's node starting.
# Last measured (Node 20.20, 2 shared cores, medians of 30): see docs/performance.md.
source "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || { echo "bubblewrap is needed (apt-get install bubblewrap)"; exit 2; }
scratch
mkdir -p "$DIR/.git"
printf 'version: 1\npermissions:\n  net.http: ["http://127.0.0.1:9/"]\n' > "$DIR/skillctl.policy.yaml"
echo '{}' > "$DIR/in.json"
$NODE --input-type=module -e "
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const { writeBundle, entry } = await import('$PWD/dist/test/helpers/bundles.js');
const version = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).trim();
const OK = { type: 'object', properties: { ok: { type: 'string' } } };
for (const [name, net] of [['plain', false], ['net', true]]) {
  mkdirSync('$DIR/' + name);
  writeFileSync('$DIR/' + name + '/main.py', 'import json, sys\njson.load(sys.stdin)\nprint(json.dumps({\"ok\": \"hi\"}))\n');
  await writeBundle('$DIR/' + name, { entrypoints: [entry({ runtime: 'python', runtime_version: version, command: 'python3 main.py', output_schema: OK, ...(net ? { requested_permissions: { 'net.http': ['http://*'] } } : {}) })] });
}
"
BIN="$PWD/bin/skillctl.js"
cd "$DIR"
for b in plain net; do $NODE "$BIN" run ./$b --input in.json --no-audit --sandbox bwrap >/dev/null || { echo "run ./$b failed"; exit 2; }; done
side_by_side egress 'without net.http' 'with it' \
  "$NODE $BIN run ./plain --input in.json --no-audit --sandbox bwrap" \
  "$NODE $BIN run ./net --input in.json --no-audit --sandbox bwrap" "$@"
