/**
 * The code of a registry's final answer when it is not one the caller takes: each status maps to
 * the code docs/codes.md gives it, with the registry's own message.
 */
import { SkillctlError } from '../errors.js';

export interface StatusContext {
  /** `host[:port]` of the registry. */
  readonly registry: string;
  /** Names the object asked for ("manifest repo:tag", "blob sha256:…"). */
  readonly what: string;
  /** How many times a 429 or 5xx was retried before this answer. */
  readonly retries: number;
  /** Whether credentials are configured for the registry (a 401 then means they were refused). */
  readonly hasCredentials: boolean;
  /** The host that answered, when it is not the registry's origin (where a redirect led). */
  readonly elsewhere?: string;
}

export function statusError(status: number, message: string, ctx: StatusContext): SkillctlError {
  const at = `${ctx.registry}: ${ctx.what}`;
  if ((status === 401 || status === 403) && ctx.elsewhere !== undefined) {
    // Credentials go to the registry's origin only, so they are neither what was refused nor the
    // fix: OCI_AUTH_* would send the user to a Docker config entry that is not at fault. The
    // registry redirected to a location that does not serve the blob (an expired pre-signed URL,
    // storage that wants credentials skillctl will not send it).
    return new SkillctlError('OCI_REGISTRY_ERROR', `${at}: ${ctx.elsewhere}, where the registry redirected, refused the request (${message}); credentials are sent to the registry only`, {
      hint: `the registry's redirect leads to storage that needs credentials of its own; ask the operator of ${ctx.registry}`,
    });
  }
  if (status === 401) {
    return ctx.hasCredentials
      ? new SkillctlError('OCI_AUTH_DENIED', `${at}: the registry refused the credentials (${message})`, { hint: `check the entry for ${ctx.registry} in the Docker config file` })
      : new SkillctlError('OCI_AUTH_REQUIRED', `${at}: the registry requires credentials (${message})`, {
          hint: `add credentials for ${ctx.registry} to the Docker config file ($DOCKER_CONFIG/config.json or ~/.docker/config.json), e.g. with docker login`,
        });
  }
  if (status === 403) return new SkillctlError('OCI_AUTH_DENIED', `${at}: access denied (${message})`);
  if (status === 404) return new SkillctlError('OCI_NOT_FOUND', `${at}: not found (${message})`);
  if (status >= 300 && status < 400) return new SkillctlError('OCI_REDIRECT_REFUSED', `${at}: unexpected redirect (${message})`);
  if ((status === 429 || status >= 500) && ctx.retries > 0) return new SkillctlError('OCI_UNREACHABLE', `${at}: still failing after ${ctx.retries} retries (${message})`);
  return new SkillctlError('OCI_REGISTRY_ERROR', `${at}: ${message}`);
}
