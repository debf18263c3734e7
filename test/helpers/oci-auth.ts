/**
 * Credentials for the real registry's two auth modes: an htpasswd file (bcrypt, the only hash
 * distribution's htpasswd accepts, made by python3's crypt, which CI already installs), and a
 * token endpoint on loopback that issues the ES256 JWTs distribution's token auth verifies (an
 * `x5c` header naming a certificate of the registry's rootcertbundle).
 */
import { spawnSync } from 'node:child_process';
import { createPrivateKey, randomBytes, sign, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes an htpasswd file with `user`'s bcrypt hash. */
export function writeHtpasswd(path: string, user: string, password: string): void {
  const r = spawnSync('python3', ['-W', 'ignore', '-c', 'import crypt,sys;print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))', password], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout.startsWith('$2')) throw new Error(`python3 could not make a bcrypt hash: ${r.stderr}`);
  writeFileSync(path, `${user}:${r.stdout.trim()}\n`);
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export interface TokenServer {
  /** `http://127.0.0.1:<port>/token` */
  readonly realm: string;
  /** Authorization headers the endpoint received, in order. */
  readonly seen: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A token endpoint: with Basic `user:password` it grants every action the scope asks for, signed
 * with `key` (PEM) whose certificate is `cert` (PEM); without them it answers 401.
 */
export async function startTokenServer(opts: { cert: string; key: string; issuer: string; service: string; user: string; password: string }): Promise<TokenServer> {
  const der = new X509Certificate(readFileSync(opts.cert)).raw;
  const key = createPrivateKey(readFileSync(opts.key));
  const expected = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
  const seen: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'bad credentials' }] }));
      return;
    }
    const access = url.searchParams.getAll('scope').map((s) => {
      const [type, ...rest] = s.split(':');
      const actions = rest.pop() ?? '';
      return { type, name: rest.join(':'), actions: actions.split(',') };
    });
    const now = Math.floor(Date.now() / 1000);
    const header = { typ: 'JWT', alg: 'ES256', x5c: [der.toString('base64')] };
    const claims = { iss: opts.issuer, sub: opts.user, aud: url.searchParams.get('service') ?? opts.service, exp: now + 300, nbf: now - 10, iat: now, jti: randomBytes(8).toString('hex'), access };
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ token: `${input}.${b64url(signature)}`, expires_in: 300 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    realm: `http://127.0.0.1:${port}/token`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
