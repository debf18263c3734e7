#!/usr/bin/env bash
# What reading HTTPS costs a process run (docs/security.md, "Egress"), side by side in one
# hyperfine run: the same python entrypoint under bubblewrap fetching one HTTPS URL from a local
# site, granted its host whole (the proxy passes the tunnel on unread: one TLS handshake, the
# program's, end to end) and granted a path prefix of it (the proxy makes the run's authority and
# a certificate for the host, ends the program's TLS, checks the URL and makes the request again
# over TLS of its own: two handshakes).
# Last measured (Node 20.20, 2 shared cores, medians of 30): see docs/performance.md.
source "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || { echo "bubblewrap is needed (apt-get install bubblewrap)"; exit 2; }
scratch
mkdir -p "$DIR/.git" "$DIR/fetch"
# The site: a certificate of a CA of the bench's, which skillctl trusts through NODE_EXTRA_CA_CERTS.
$NODE --input-type=module -e "
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const { createRunAuthority } = await import('$PWD/dist/src/core/run/egress/cert.js');
const { writeBundle, entry } = await import('$PWD/dist/test/helpers/bundles.js');
const ca = createRunAuthority();
writeFileSync('$DIR/site-ca.pem', ca.certificate);
writeFileSync('$DIR/site.json', JSON.stringify(ca.issue('127.0.0.1')));
const version = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).trim();
const OK = { type: 'object', properties: { ok: { type: 'string' } } };
const py = 'import json, ssl, sys, urllib.request\nurl = json.load(sys.stdin)[\"url\"]\nctx = ssl.create_default_context()\nctx.load_verify_locations(\"site-ca.pem\")\nbody = urllib.request.urlopen(url, timeout=10, context=ctx).read().decode()\nprint(json.dumps({\"ok\": body}))\n';
await writeBundle('$DIR/fetch', { entrypoints: [entry({ runtime: 'python', runtime_version: version, command: 'python3 main.py', output_schema: OK, requested_permissions: { 'net.http': ['https://*'] } })], files: { 'main.py': py, 'site-ca.pem': ca.certificate } });
"
$NODE -e "
const site = JSON.parse(require('fs').readFileSync('$DIR/site.json', 'utf8'));
const s = require('https').createServer(site, (q, r) => r.end('ok')).listen(0, '127.0.0.1', () => require('fs').writeFileSync('$DIR/port', String(s.address().port)));
" &
SITE=$!
trap 'kill $SITE 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do [ -s "$DIR/port" ] && break; sleep 0.1; done
PORT=$(cat "$DIR/port")
printf 'version: 1\npermissions:\n  net.http: ["https://127.0.0.1:%s"]\n' "$PORT" > "$DIR/host.policy.yaml"
printf 'version: 1\npermissions:\n  net.http: ["https://127.0.0.1:%s/public"]\n' "$PORT" > "$DIR/path.policy.yaml"
printf '{"url": "https://127.0.0.1:%s/public/x"}\n' "$PORT" > "$DIR/in.json"
BIN="$PWD/bin/skillctl.js"
cd "$DIR"
export NODE_EXTRA_CA_CERTS="$DIR/site-ca.pem"
for p in host path; do $NODE "$BIN" run ./fetch --policy $p.policy.yaml --input in.json --no-audit --sandbox bwrap --json | grep -q '"ok": "ok"' || { echo "run under $p.policy.yaml failed"; $NODE "$BIN" run ./fetch --policy $p.policy.yaml --input in.json --no-audit --sandbox bwrap; exit 2; }; done
side_by_side egress-https 'HTTPS passed on (host grant)' 'read by the proxy (path grant)' \
  "$NODE $BIN run ./fetch --policy host.policy.yaml --input in.json --no-audit --sandbox bwrap" \
  "$NODE $BIN run ./fetch --policy path.policy.yaml --input in.json --no-audit --sandbox bwrap" "$@"
