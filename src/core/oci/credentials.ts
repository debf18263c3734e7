/**
 * Credentials from a Docker config file (`$DOCKER_CONFIG/config.json`, else
 * `~/.docker/config.json`): its `auths` entries, `auth` (base64 of `user:password`) or
 * `username`/`password`, or an `identitytoken`. Credential helpers (`credsStore`, `credHelpers`)
 * run programs and are not used. The secrets are held in this module's values only: no message,
 * diagnostic or result ever carries them (messages name the file and the registry).
 */
import { readBounded } from '../fs/index.js';

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** A registry's credentials, looked up by `host[:port]`. */
export type CredentialStore = (registry: string) => Credentials | undefined;

export const NO_CREDENTIALS: CredentialStore = () => undefined;

function entryCredentials(entry: unknown): Credentials | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  if (typeof e.auth === 'string' && e.auth !== '') {
    const text = Buffer.from(e.auth, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon > 0) return { username: text.slice(0, colon), password: text.slice(colon + 1) };
  }
  if (typeof e.username === 'string' && typeof e.password === 'string') return { username: e.username, password: e.password };
  // An identity token is exchanged at the token endpoint as a refresh token; sent as the password
  // of the `<token>` user, which distribution's token servers accept.
  if (typeof e.identitytoken === 'string' && e.identitytoken !== '') return { username: '<token>', password: e.identitytoken };
  return undefined;
}

/** The key `auths` uses may carry a scheme and a path (`https://host/v1/`): its host part. */
function keyHost(key: string): string {
  return key.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '').toLowerCase();
}

/**
 * Reads the config at `path`; a missing, unreadable or malformed file gives no credentials (an
 * anonymous pull still works, and the registry's 401 then says credentials are needed).
 */
export async function loadDockerCredentials(path: string): Promise<CredentialStore> {
  const r = await readBounded(path, { maxBytes: 1024 * 1024 });
  if (!r.ok) return NO_CREDENTIALS;
  let doc: unknown;
  try {
    doc = JSON.parse(r.bytes.toString('utf8'));
  } catch {
    return NO_CREDENTIALS;
  }
  const auths = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).auths : undefined;
  if (typeof auths !== 'object' || auths === null) return NO_CREDENTIALS;
  const table = new Map<string, Credentials>();
  for (const [key, entry] of Object.entries(auths)) {
    const c = entryCredentials(entry);
    if (c !== undefined) table.set(keyHost(key), c);
  }
  return (registry) => table.get(registry.toLowerCase());
}
