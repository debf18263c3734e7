// Threat: SSRF through a lock's origins (a pull request's lock names a registry or an MCP server on loopback, the private network or cloud metadata, so that the CI job running verify-pins --remote on it sends requests there and prints what they answer).
// Each row writes such an origin into a pinned project's lock and runs verify-pins --remote, as CI
// does on a pull request. Before --private-origins, every one was contacted: the registry's
// origin at 127.0.0.1:<port> of a server that records what it receives, a name that resolves to
// loopback, the metadata address, an MCP server's URL on loopback. Now each is PIN_ORIGIN_PRIVATE
// (exit 2) and the server received nothing; with --private-origins, a reviewed lock's loopback
// registry is asked. A name that answers a public address to the check and loopback to the
// connection (DNS rebinding, test/helpers/rebinding-dns.ts) passed the check, and an MCP server's
// URL at it was reached: every connection is now checked as it is made, the MCP client's as the
// registry's.
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { renderLock, type SkillctlLock, type SkillOrigin } from '../../src/core/pins/index.js';
import { attackRows, attempt, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { serve, type TestServer } from '../helpers/network.js';
import { fixture } from '../helpers/paths.js';
import { pinPaths } from '../helpers/pins.js';
import { REBINDING_NAME, rebindingDns } from '../helpers/rebinding-dns.js';

const LOCK = join('pins', 'skills.lock.json');
/** What the servers answer: it must never reach the output of a refused origin. */
const ANSWER = 'INTERNAL-SERVICE-ANSWER-31415';
const DIGEST: `sha256:${string}` = `sha256:${'a'.repeat(64)}`;

let server: TestServer;
let pinned: SkillctlLock;

/** verify-pins --remote (and `extra`) on the project whose one pin records `origin`; `rebinding`: REBINDING_NAME rebinds in that process. */
const verifyWith = (origin: () => SkillOrigin, extra: readonly string[] = [], rebinding = false) => async (sc: Scratch): Promise<Ran> => {
  const skills = pinned.skills.map((pin) => ({ ...pin, origin: origin() }));
  await writeFile(join(sc.work, LOCK), renderLock({ ...pinned, skills }));
  server.seen.length = 0;
  const dns = rebinding ? rebindingDns(sc.root) : {};
  return attempt(['verify-pins', '--remote', ...extra], { cwd: sc.work, env: { XDG_CACHE_HOME: join(sc.root, 'cache'), DOCKER_CONFIG: join(sc.root, 'docker'), ...dns } });
};
const oci = (reference: () => string) => (): SkillOrigin => ({ oci: { reference: reference(), digest: DIGEST } });
const mcpUrl = (url: () => string) => (): SkillOrigin => ({ mcp: { server: { url: url() }, uri: 'skill://x/SKILL.md', files: [{ path: 'SKILL.md', digest: DIGEST, size: 1 }] } });

/** Nothing reached the server, nothing it would answer was printed, and the finding names the address. */
const notContacted = (address: RegExp) => (r: Ran): void => {
  assert.deepEqual(server.seen, [], 'the server was contacted');
  assert.ok(!r.stdout.includes(ANSWER) && !r.stderr.includes(ANSWER));
  const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.filter((d) => d.code === 'PIN_ORIGIN_PRIVATE');
  assert.equal(found.length, 1, r.stdout);
  assert.match(found[0]?.message ?? '', address);
};

describe('threat: SSRF through the origins of a lock verify-pins --remote checks', () => {
  const sc = scratch('skillctl-lock-origins-');
  before(async () => {
    // A registry's error (or an MCP server's answer) carrying what the service would leak.
    server = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: ANSWER }] }));
    });
    await cp(fixture('pins', 'project'), sc.work, { recursive: true });
    const outcome = await pinPaths(sc.work);
    assert.ok(outcome.ok, JSON.stringify(outcome.diagnostics));
    pinned = JSON.parse(await readFile(join(sc.work, LOCK), 'utf8')) as SkillctlLock;
  });
  after(() => server.close());

  const rows: Attack[] = [
    {
      what: "an OCI origin at a loopback registry (127.0.0.1:<port>), the CI host's own services",
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(oci(() => `oci://127.0.0.1:${server.port}/skills/x:1`)),
      check: notContacted(/127\.0\.0\.1 is not a public address/),
    },
    {
      what: 'an OCI origin at the cloud metadata address 169.254.169.254',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(oci(() => 'oci://169.254.169.254/latest:x')),
      check: notContacted(/169\.254\.169\.254 is not a public address/),
    },
    {
      what: 'an OCI origin on the private network (10.0.0.5:5000)',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(oci(() => 'oci://10.0.0.5:5000/skills/x:1')),
      check: notContacted(/10\.0\.0\.5 is not a public address/),
    },
    {
      what: 'an OCI origin at a name that resolves to loopback (localhost:<port>)',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(oci(() => `oci://localhost:${server.port}/skills/x:1`)),
      check: notContacted(/localhost resolves to (127\.0\.0\.1|::1), not a public address/),
    },
    {
      what: 'an MCP origin whose server URL is on loopback (http://127.0.0.1:<port>/mcp)',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(mcpUrl(() => `http://127.0.0.1:${server.port}/mcp`)),
      check: notContacted(/127\.0\.0\.1 is not a public address/),
    },
    {
      what: 'an MCP origin whose server URL spells loopback as a number (http://2130706433:<port>/mcp)',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(mcpUrl(() => `http://2130706433:${server.port}/mcp`)),
      check: notContacted(/127\.0\.0\.1 is not a public address/),
    },
    {
      what: 'an MCP origin at a name that answers a public address to the check and loopback to the connection (DNS rebinding)',
      code: 'PIN_ORIGIN_PRIVATE',
      exit: 2,
      attempt: verifyWith(mcpUrl(() => `http://${REBINDING_NAME}:${server.port}/mcp`), [], true),
      check: notContacted(/: initialize was not sent: rebinding\.skillctl\.test resolved to 127\.0\.0\.1 as the connection was made/),
    },
    {
      what: 'an OCI origin at a name that answers a public address to the check and loopback to the connection (DNS rebinding)',
      code: 'OCI_UNREACHABLE',
      exit: 2,
      attempt: verifyWith(oci(() => `oci://${REBINDING_NAME}:${server.port}/skills/x:1`), [], true),
      check: (r) => {
        assert.deepEqual(server.seen, [], 'the server was contacted');
        assert.ok(!r.stdout.includes(ANSWER) && !r.stderr.includes(ANSWER));
        assert.match(r.stdout, /ENOTPUBLIC \(127\.0\.0\.1 is not a public address\)/);
      },
    },
    {
      what: 'with --private-origins (a reviewed lock), the MCP server on loopback is asked',
      code: 'MCP_PULL_SERVER_UNAVAILABLE',
      exit: 2,
      attempt: verifyWith(mcpUrl(() => `http://127.0.0.1:${server.port}/mcp`), ['--private-origins']),
      check: () => assert.ok(server.seen.length > 0, 'the server was not asked'),
    },
    {
      what: "with --private-origins (a reviewed lock), the loopback registry is asked and its answer reported",
      code: 'OCI_NOT_FOUND',
      exit: 2,
      attempt: verifyWith(oci(() => `oci://127.0.0.1:${server.port}/skills/x:1`), ['--private-origins']),
      check: () => assert.ok(server.seen.length > 0, 'the registry was not asked'),
    },
  ];
  attackRows(rows, sc);
});
