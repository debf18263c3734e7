// Threat: a skill drives a host service through a Unix socket a grant shows. A read-only mount
// does not stop connect(): a skill granted only `fs.read` of a folder, or of `/`, reached the
// user's tmux server in /run/user/UID (and typed into their shell, outside every sandbox), the
// systemd user manager's bus, docker.sock, ssh and gpg agents. Now the sandbox shows no /run or
// /var/run unless a grant names them, and covers each socket the walk below the grants meets,
// and a grant that is itself a socket, with /dev/null: connect() there is ECONNREFUSED.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack, type Ran } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

/** Connects to each socket named in the input, and lists /run: what a skill would reach. */
const CONNECT_PY = `import errno, json, os, socket, sys
paths = json.load(sys.stdin)["paths"]
out = {}
for p in paths:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(p)
        out[p] = "connected"
    except OSError as e:
        out[p] = errno.errorcode.get(e.errno, str(e.errno))
    finally:
        s.close()
try:
    run = sorted(os.listdir("/run"))
except OSError as e:
    run = errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps({"ok": {"connect": out, "run": run}}))
`;

describe('threat: a skill drives a host service through a Unix socket inside its grant', () => {
  const sc = scratch('skillctl-sockets-');
  const svc = join(sc.work, 'svc');
  const top = join(svc, 'agent.sock');
  const nested = join(svc, 'deep', 'er', 'nested.sock');
  const servers: Server[] = [];
  let connections = 0;

  const bundle = async (name: string, perms: Record<string, string[]>): Promise<void> => {
    await writeBundle(join(sc.work, name), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', requested_permissions: perms, input_schema: { type: 'object', properties: { paths: { type: 'array' } } }, args_fingerprint_fields: ['input.paths'] })],
      files: { 'main.py': CONNECT_PY },
    });
  };

  before(async () => {
    mkdirSync(join(svc, 'deep', 'er'), { recursive: true });
    for (const path of [top, nested]) {
      const server = createServer((c) => {
        connections++;
        c.end('hello from the host\n');
      });
      await new Promise<void>((ok) => server.listen(path, ok));
      servers.push(server);
    }
    const policy = (grants: string): void => writeFileSync(join(sc.work, `${grants.replace(/\W+/g, '-')}.policy.yaml`), `version: 1\npermissions:\n  ${grants}\n`);
    policy('fs.read: [./svc]');
    policy('fs.write: [./svc]');
    policy('fs.read: [/]');
    policy('fs.read: [./svc/agent.sock]');
    await bundle('reader', { 'fs.read': ['./svc'] });
    await bundle('writer', { 'fs.write': ['./svc'] });
    await bundle('rooter', { 'fs.read': ['/'] });
    await bundle('named', { 'fs.read': ['./svc/agent.sock'] });
  });
  after(async () => {
    for (const s of servers) await new Promise<void>((ok) => s.close(() => ok()));
  });

  type Seen = { connect: Record<string, string>; run: string[] | string };
  const refused = (paths: string[]) => (r: Ran) => {
    const seen = (r.output as { ok: Seen }).ok;
    assert.deepEqual(seen.connect, Object.fromEntries(paths.map((p) => [p, 'ECONNREFUSED'])), r.stdout);
    assert.equal(connections, 0, 'the host service saw a connection');
  };
  // Each row counts the connections its own run made.
  const run = (bundleName: string, policyFile: string, paths: string[]) => (s: typeof sc) => {
    connections = 0;
    return runTarget(join(s.work, bundleName), { paths }, { cwd: s.work, policy: policyFile, sandbox: 'bwrap' });
  };

  const rows: Attack[] = [
    {
      what: 'a python skill granted fs.read of a folder connects to the socket at its top and one three folders down (--sandbox bwrap)',
      code: null,
      exit: 0,
      attempt: run('reader', 'fs-read-svc-.policy.yaml', [top, nested]),
      check: refused([top, nested]),
    },
    {
      what: 'a python skill granted fs.write of the folder connects to both sockets',
      code: null,
      exit: 0,
      attempt: run('writer', 'fs-write-svc-.policy.yaml', [top, nested]),
      check: refused([top, nested]),
    },
    {
      what: 'a python skill granted fs.read of the socket itself connects to it: a socket is not a file to read',
      code: null,
      exit: 0,
      attempt: run('named', 'fs-read-svc-agent-sock-.policy.yaml', [top]),
      check: refused([top]),
    },
    {
      what: 'a python skill granted fs.read of / lists /run, where the user tmux, bus and agent sockets are: it is empty',
      code: null,
      exit: 0,
      attempt: run('rooter', 'fs-read-.policy.yaml', []),
      check: (r) => {
        refused([])(r);
        const seen = (r.output as { ok: Seen }).ok;
        assert.ok(seen.run === 'ENOENT' || (Array.isArray(seen.run) && seen.run.length === 0), `/run shows ${JSON.stringify(seen.run)}`);
      },
    },
  ];
  attackRows(rows, sc);
});
