/**
 * The real CNCF distribution registry (Debian's `docker-registry`) on a free loopback port, with
 * a temporary config and storage directory, for tests: started by `startRegistry`, stopped (and
 * its directory removed) by `stop`. Optional TLS (a certificate made with openssl), htpasswd
 * basic auth, or token auth against a test token endpoint.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REGISTRY_BIN = '/usr/bin/docker-registry';

export interface RegistryOptions {
  /** Serve HTTPS with this certificate and key (PEM files). */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** htpasswd file for basic auth. */
  readonly htpasswd?: string;
  /** Token auth: realm URL, service, issuer and the certificate bundle that verifies tokens. */
  readonly token?: { readonly realm: string; readonly service: string; readonly issuer: string; readonly rootCertBundle: string };
}

export interface RunningRegistry {
  /** `127.0.0.1:<port>` */
  readonly host: string;
  readonly port: number;
  readonly dir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function configYaml(port: number, storage: string, opts: RegistryOptions): string {
  const lines = [
    'version: 0.1',
    'log:',
    '  level: error',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${storage}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
  ];
  if (opts.tls !== undefined) lines.push('  tls:', `    certificate: ${opts.tls.cert}`, `    key: ${opts.tls.key}`);
  if (opts.htpasswd !== undefined) lines.push('auth:', '  htpasswd:', '    realm: test-realm', `    path: ${opts.htpasswd}`);
  if (opts.token !== undefined) {
    const t = opts.token;
    lines.push('auth:', '  token:', `    realm: ${t.realm}`, `    service: ${t.service}`, `    issuer: ${t.issuer}`, `    rootcertbundle: ${t.rootCertBundle}`);
  }
  return lines.join('\n') + '\n';
}

async function waitUp(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited ${child.exitCode}: ${output()}`);
    // By connecting: a probe that bound the port itself (to see it taken) could hold it at the
    // very moment the registry binds, which then exits with `address already in use`.
    const up = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`docker-registry did not listen on ${port}: ${output()}`);
}

export async function startRegistry(opts: RegistryOptions = {}): Promise<RunningRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-registry-'));
  const port = await freePort();
  const config = join(dir, 'config.yml');
  writeFileSync(config, configYaml(port, join(dir, 'storage'), opts));
  const child = spawn(REGISTRY_BIN, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  await waitUp(port, child, () => output);
  return {
    host: `127.0.0.1:${port}`,
    port,
    dir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export function makeCertificate(dir: string, name = 'registry'): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const r = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { cert, key };
}

/** Whether skopeo is installed (the interop tests need it). */
export function hasSkopeo(): boolean {
  return spawnSync('skopeo', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** A Docker config file with `auths` for `host`, in a new directory; returns the directory (DOCKER_CONFIG). */
export function dockerConfig(host: string, username: string, password: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-docker-config-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${username}:${password}`).toString('base64') } } }));
  return dir;
}

/**
 * A project under `work` (`proj`, with `.git/`) that trusts skillctl's project key, as the skills
 * pushed from manifests/default are signed with it, and the environment of its commands: a cache
 * and an empty Docker config of their own under `work`.
 */
export async function ociProject(work: string): Promise<{ proj: string; env: Record<string, string> }> {
  const proj = join(work, 'proj');
  await mkdir(join(proj, '.git'), { recursive: true });
  await mkdir(join(proj, 'pins'));
  await copyFile(join(process.cwd(), 'pins', 'public-keys.json'), join(proj, 'pins', 'public-keys.json'));
  await mkdir(join(work, 'docker'));
  return { proj, env: { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'docker') } };
}
