// The real registry with basic auth over TLS (htpasswd, a certificate made with openssl) and with
// token auth (a test token endpoint; the registry verifying the tokens is the real one).
import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { startTokenServer, writeHtpasswd, type TokenServer } from '../helpers/oci-auth.js';
import { dockerConfig, makeCertificate, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';

const BUNDLE = join(process.cwd(), 'manifests', 'default', 'fs.read_text');

function codes(r: CliRun): string[] {
  const doc = json<{ error?: { code: string }; diagnostics?: { code: string }[] }>(r);
  return doc.error !== undefined ? [doc.error.code] : (doc.diagnostics ?? []).map((d) => d.code);
}

describe('oci:// with basic auth over TLS', () => {
  let registry: RunningRegistry;
  let work: string;
  let tls: { cert: string; key: string };
  before(async () => {
    work = await tempDir('skillctl-oci-tls-');
    tls = makeCertificate(work);
    writeHtpasswd(join(work, 'htpasswd'), 'alice', 'SENTINEL-PASSWORD');
    registry = await startRegistry({ tls, htpasswd: join(work, 'htpasswd') });
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });
  const env = (docker: string, ca = true): Record<string, string> => ({ XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: docker, ...(ca ? { NODE_EXTRA_CA_CERTS: tls.cert } : {}) });

  it('pushes and pulls with the Docker config credentials, over HTTPS; the password is never printed', async () => {
    const docker = dockerConfig(registry.host, 'alice', 'SENTINEL-PASSWORD');
    const ref = `oci://${registry.host}/skills/fs.read_text:1`;
    const pushed = await skillctlAsync(['push', BUNDLE, ref, '--json'], { env: env(docker), timeoutMs: 60_000 });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const proj = join(work, 'proj');
    await mkdir(proj);
    const pulled = await skillctlAsync(['pull', ref, '--json'], { cwd: proj, env: env(docker), timeoutMs: 60_000 });
    assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
    assert.ok(!(pushed.stdout + pushed.stderr + pulled.stdout + pulled.stderr).includes('SENTINEL-PASSWORD'));
  });

  it('a wrong password is OCI_AUTH_DENIED, none OCI_AUTH_REQUIRED, an untrusted certificate OCI_UNREACHABLE (never plain HTTP)', async () => {
    const ref = `oci://${registry.host}/skills/fs.read_text:1`;
    const proj = join(work, 'proj-refused');
    await mkdir(proj);
    const wrong = await skillctlAsync(['pull', ref, '--json'], { cwd: proj, env: env(dockerConfig(registry.host, 'alice', 'wrong')), timeoutMs: 60_000 });
    assert.equal(wrong.code, 2);
    assert.deepEqual(codes(wrong), ['OCI_AUTH_DENIED']);
    const none = await skillctlAsync(['pull', ref, '--json'], { cwd: proj, env: env(join(work, 'no-docker')), timeoutMs: 60_000 });
    assert.equal(none.code, 2);
    assert.deepEqual(codes(none), ['OCI_AUTH_REQUIRED']);
    const untrusted = await skillctlAsync(['pull', ref, '--json'], { cwd: proj, env: env(dockerConfig(registry.host, 'alice', 'SENTINEL-PASSWORD'), false), timeoutMs: 60_000 });
    assert.equal(untrusted.code, 2);
    assert.deepEqual(codes(untrusted), ['OCI_UNREACHABLE']);
    assert.deepEqual(await readdir(proj), []);
  });
});

describe('oci:// with token auth (a bearer challenge)', () => {
  let registry: RunningRegistry;
  let tokens: TokenServer;
  let work: string;
  before(async () => {
    work = await tempDir('skillctl-oci-token-');
    const signing = makeCertificate(work, 'token-signer');
    tokens = await startTokenServer({ ...signing, issuer: 'skillctl-test', service: 'skillctl-registry', user: 'bob', password: 'SENTINEL-TOKEN-PW' });
    registry = await startRegistry({ token: { realm: tokens.realm, service: 'skillctl-registry', issuer: 'skillctl-test', rootCertBundle: signing.cert } });
  });
  after(async () => {
    await registry.stop();
    await tokens.close();
    await removeDir(work);
  });

  it('answers the challenge with a token from the realm, for push and pull', async () => {
    const env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: dockerConfig(registry.host, 'bob', 'SENTINEL-TOKEN-PW') };
    const ref = `oci://${registry.host}/skills/fs.read_text:1`;
    const pushed = await skillctlAsync(['push', BUNDLE, ref, '--json'], { env, timeoutMs: 60_000 });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const proj = join(work, 'proj');
    await mkdir(proj);
    const pulled = await skillctlAsync(['pull', ref, '--json'], { cwd: proj, env, timeoutMs: 60_000 });
    assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
    assert.ok(tokens.seen.length >= 2);
    assert.ok(tokens.seen.every((h) => h?.startsWith('Basic ') === true));
  });

  it('without credentials the token endpoint refuses: OCI_AUTH_REQUIRED with its message', async () => {
    const proj = join(work, 'proj-anon');
    await mkdir(proj);
    const r = await skillctlAsync(['pull', `oci://${registry.host}/skills/fs.read_text:1`, '--json'], { cwd: proj, env: { XDG_CACHE_HOME: join(work, 'cache-anon'), DOCKER_CONFIG: join(work, 'none') }, timeoutMs: 60_000 });
    assert.equal(r.code, 2, r.stdout);
    assert.deepEqual(codes(r), ['OCI_AUTH_REQUIRED']);
    assert.match(json<{ error: { message: string } }>(r).error.message, /bad credentials/);
  });
});
