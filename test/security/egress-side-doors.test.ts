// Threat: egress (a process skill granted one URL prefix reaches another host, port or path, or a service on the host's loopback).
// Ways out that are not TCP to the proxy: an abstract Unix socket a service of the host listens on
// (abstract names belong to a network namespace, not to the file system, so no mount hides them),
// and a UDP datagram to a service on the host's loopback (a resolver, as 127.0.0.53 is). The
// sandbox's network namespace has neither: the skill, granted a URL, reaches no such service.
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { attackRows, runTarget, scratch, SECRET, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

const POLICY = 'egress-side-doors.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/** Connects to the abstract socket `abstract`, or sends a datagram to `udp`; what came back, or the error. */
const DOOR_PY = `import json, socket, sys
i = json.load(sys.stdin)
try:
    if 'abstract' in i:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        # Node names an abstract socket by the whole of sun_path, its name padded with NULs.
        name = '\\0' + i['abstract']
        s.connect(name + '\\0' * (108 - len(name)))
        out = 'abstract ' + s.recv(100).decode()
    else:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(2)
        s.sendto(b'ping', tuple(i['udp']))
        out = 'udp ' + s.recvfrom(100)[0].decode()
except Exception as e:
    out = 'failed %s' % type(e).__name__
print(json.dumps({'ok': out}))
`;

const ABSTRACT = `skillctl-test-${randomBytes(6).toString('hex')}`;
let abstract: Server;
let udp: UdpSocket;
let udpPort = 0;

const said = (pattern: RegExp) => (r: Ran): void => assert.match((r.output as { ok?: string }).ok ?? '', pattern, r.stdout + r.stderr);
const door = (input: unknown) => (sc: Scratch): Promise<Ran> => runTarget('./bundles/door', input, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap' });

const rows: Attack[] = [
  { what: "an abstract Unix socket a service of the host listens on", code: null, exit: 0, attempt: (sc) => door({ abstract: ABSTRACT })(sc), check: said(/^failed ConnectionRefusedError$/) },
  { what: "a UDP datagram to a service on the host's loopback", code: null, exit: 0, attempt: (sc) => door({ udp: ['127.0.0.1', udpPort] })(sc), check: said(/^failed (TimeoutError|timeout|ConnectionRefusedError)$/) },
];

describe('egress side doors: no way out of the sandbox but the proxy', () => {
  const s = scratch('skillctl-attack-egress-doors-');
  before(async () => {
    abstract = createServer((c) => c.end(SECRET));
    await new Promise<void>((resolve) => abstract.listen(`\0${ABSTRACT}`, resolve));
    udp = createSocket('udp4');
    udp.on('message', (_m, from) => udp.send(SECRET, from.port, from.address));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    udpPort = udp.address().port;
    await writeBundle(join(s.work, 'bundles', 'door'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 door.py', output_schema: OK, requested_permissions: { 'net.http': ['http://*'] } })],
      files: { 'door.py': DOOR_PY },
    });
    await writeFile(join(s.work, POLICY), ['version: 1', 'permissions:', '  fs.read: [.]', '  net.http:', '    - http://127.0.0.1:1/public', ''].join('\n'));
  });
  after(async () => {
    udp.close();
    await new Promise((resolve) => abstract.close(resolve));
  });

  attackRows(rows, s);
});
