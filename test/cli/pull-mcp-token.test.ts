// `pull skill:// --mcp-url` and `verify-pins --remote` against a real `skillctl mcp --http`, which
// requires a bearer token: without one (or with another) the server answers 401, and that is
// MCP_PULL_SERVER_UNAUTHORIZED with nothing written; with `--mcp-token-file` the skill is pulled.
// The token is never in an output, the lock, or any file the pull, pin or verify-pins writes, and
// verify-pins sends it only to the origin named with it, whatever else the lock names.
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { startHttpMcp, TOKEN, type HttpMcp } from '../helpers/mcp-http.js';
import { SERVED } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

const URI = 'skill://pdf-processing/SKILL.md';

interface Doc {
  readonly ok: boolean;
  readonly diagnostics: { code: string; message: string; hint?: string }[];
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

function assertNoToken(r: CliRun, secret = TOKEN): void {
  assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'the token is in the output');
}

const codes = (r: CliRun): string[] => json<Doc>(r).diagnostics.map((d) => d.code);

describe('skillctl pull skill:// --mcp-url from a skillctl mcp --http that requires a token', () => {
  // Made here, not in before(): tempDir's clean-up belongs to the file, not to a hook.
  const served = tempDir('skillctl-served-');
  cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
  const serverCwd = tempDir('skillctl-mcp-cwd-');
  /** Holds the token, outside every project. */
  const tokenFile = join(tempDir('skillctl-secrets-'), 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  writeFileSync(join(tokenFile, '..', 'other'), 'another-token-0123456789abcdef\n');
  let server: HttpMcp;
  let origin: string;

  before(async () => {
    server = await startHttpMcp(['--skills', served, '--no-audit'], serverCwd);
    origin = new URL(server.url).origin;
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  const pull = (project: string, extra: readonly string[], env?: Record<string, string>): Promise<CliRun> =>
    skillctlAsync(['pull', URI, '--mcp-url', server.url, '--json', ...extra], { cwd: project, ...(env !== undefined ? { env } : {}) });

  it('without a token (and not taken from $SKILLCTL_MCP_TOKEN): MCP_PULL_SERVER_UNAUTHORIZED naming --mcp-token-file, exit 2, nothing written', async () => {
    const project = realpathSync(tempDir());
    // The variable holds the very token the server wants: a pull still does not send it.
    const r = await pull(project, [], { SKILLCTL_MCP_TOKEN: TOKEN });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codes(r), ['MCP_PULL_SERVER_UNAUTHORIZED']);
    assert.match(json<Doc>(r).diagnostics[0]?.hint ?? '', /--mcp-token-file/);
    assertNoToken(r);
    assert.deepEqual(readdirSync(project), [], 'nothing is written');
  });

  it('with another token: MCP_PULL_SERVER_UNAUTHORIZED, the server refused it, and neither token is shown', async () => {
    const project = realpathSync(tempDir());
    const r = await pull(project, ['--mcp-token-file', join(tokenFile, '..', 'other')]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codes(r), ['MCP_PULL_SERVER_UNAUTHORIZED']);
    assert.match(json<Doc>(r).diagnostics[0]?.message ?? '', /refused the bearer token sent/);
    assertNoToken(r, 'another-token-0123456789abcdef');
    assert.deepEqual(readdirSync(project), []);
  });

  it('with --mcp-token-file: pulled and verified; pin and verify-pins --remote (the token sent to its origin only); the token in no output and no file', async () => {
    const project = realpathSync(tempDir());
    const r = await pull(project, ['--mcp-token-file', tokenFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(json<Doc>(r).diagnostics, []);
    assertNoToken(r);
    assert.deepEqual(filesOf(join(project, '.agents/skills/pdf-processing')), filesOf(join(SERVED, 'pdf-processing')));
    for (const f of filesOf(join(SERVED, 'pdf-processing'))) {
      assert.ok(readFileSync(join(project, '.agents/skills/pdf-processing', f)).equals(readFileSync(join(SERVED, 'pdf-processing', f))), f);
    }
    const pinned = skillctl(['pin', '.agents/skills/pdf-processing'], { cwd: project });
    assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);

    const remote = ['verify-pins', '--remote', '--private-origins', '--json'];
    const without = await skillctlAsync(remote, { cwd: project, env: { SKILLCTL_MCP_TOKEN: TOKEN } });
    assert.equal(without.code, 2, without.stdout);
    assert.deepEqual(codes(without), ['MCP_PULL_SERVER_UNAUTHORIZED']);
    const withToken = await skillctlAsync([...remote, '--mcp-token-file', `${origin}=${tokenFile}`], { cwd: project });
    assert.equal(withToken.code, 0, withToken.stdout + withToken.stderr);
    // Another port is another origin: its token is not this server's, and is not sent to it.
    const elsewhere = await skillctlAsync([...remote, '--mcp-token-file', `http://127.0.0.1:1=${tokenFile}`], { cwd: project });
    assert.deepEqual(codes(elsewhere), ['MCP_PULL_SERVER_UNAUTHORIZED']);
    for (const run of [pinned, without, withToken, elsewhere]) assertNoToken(run);

    const files = filesOf(project);
    assert.ok(files.includes('pins/skills.lock.json') && files.includes('.skillctl/mcp-origins.json'), files.join(' '));
    for (const f of files) assert.ok(!readFileSync(join(project, f)).includes(TOKEN), `${f} holds the token`);
  });

  it('verify-pins never sends the token to a server the lock names at another origin', async () => {
    const project = realpathSync(tempDir());
    assert.equal((await pull(project, ['--mcp-token-file', tokenFile])).code, 0);
    assert.equal(skillctl(['pin', '.agents/skills/pdf-processing'], { cwd: project }).code, 0);
    // A lock whose origin was changed to a server that wants the token, as a hostile change would.
    const seen: IncomingHttpHeaders[] = [];
    const hostile = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const lockPath = join(project, 'pins/skills.lock.json');
      const hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/mcp`;
      writeFileSync(lockPath, readFileSync(lockPath, 'utf8').replace(server.url, hostileUrl));
      const r = await skillctlAsync(['verify-pins', '--remote', '--private-origins', '--json', '--mcp-token-file', `${origin}=${tokenFile}`], { cwd: project });
      assert.deepEqual(codes(r), ['MCP_PULL_SERVER_UNAUTHORIZED'], r.stdout + r.stderr);
      assert.ok(seen.length > 0, 'the hostile origin was asked');
      assert.deepEqual(seen.map((h) => h.authorization), seen.map(() => undefined));
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
  });
});

describe('--mcp-token-file: usage errors (exit 2), the token never shown', () => {
  const short = 'tooshort-secret';
  const dir = tempDir('skillctl-token-usage-');
  writeFileSync(join(dir, 'short'), `${short}\n`);
  writeFileSync(join(dir, 'token'), `${TOKEN}\n`);
  const cases: [string, string[], RegExp][] = [
    ['a token too short', ['pull', URI, '--mcp-url', 'http://127.0.0.1:1/mcp', '--mcp-token-file', 'short'], /--mcp-token-file short is not a usable token: a token is at least 16/],
    ['pull: without --mcp-url', ['pull', URI, '--mcp', 'x', '--mcp-token-file', 'token'], /--mcp-token-file is the token sent to the --mcp-url server, and --mcp-url is not given/],
    ['pull: with oci://', ['pull', 'oci://127.0.0.1:1/x:1', '--mcp-token-file', 'token'], /--mcp-token-file does not apply to oci:\/\//],
    ['verify-pins: without --remote', ['verify-pins', '--mcp-token-file', 'https://mcp.example.com=token'], /--remote is not given/],
    ['verify-pins: a URL with a path, not an origin', ['verify-pins', '--remote', '--mcp-token-file', 'https://mcp.example.com/mcp=token'], /give ORIGIN=FILE/],
    ['verify-pins: no origin', ['verify-pins', '--remote', '--mcp-token-file', 'token'], /give ORIGIN=FILE/],
    ['verify-pins: one origin twice', ['verify-pins', '--remote', '--mcp-token-file', 'https://a.example=token', '--mcp-token-file', 'https://A.example:443=short'], /https:\/\/a\.example is given twice/],
    ['verify-pins: a token too short', ['verify-pins', '--remote', '--mcp-token-file', 'https://a.example=short', '--lock', '-'], /--mcp-token-file short is not a usable token/],
  ];
  for (const [what, args, message] of cases) {
    it(what, () => {
      const r = skillctl(args, { cwd: dir, input: `${JSON.stringify({ lock_version: 'skillctl.lock.v1', min_signers: 0, packs: [], skills: [] }, null, 2)}\n` });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assertNoToken(r);
      assertNoToken(r, short);
    });
  }
});
