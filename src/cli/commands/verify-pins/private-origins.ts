/**
 * The origins `verify-pins --remote` does not contact without --private-origins: those whose host
 * is not a public address. A lock is as untrusted as the change that brings it, and CI runs
 * `verify-pins --remote` on pull requests: an origin at `oci://169.254.169.254/…`, at a registry on
 * the private network or an MCP URL on the CI host's loopback would have the job send requests to
 * cloud metadata or to services nobody exposed (SSRF), and print what they answer. Each such pin
 * is reported (PIN_ORIGIN_PRIVATE, exit 2: never a silent pass). A name is resolved here so the
 * finding can name the address; the OCI transport and the MCP client check again as they connect
 * (publicOnly), since the name is resolved again then: a name that rebinds between here and the
 * request is refused there (OCI_UNREACHABLE naming ENOTPUBLIC; PIN_ORIGIN_PRIVATE for an MCP
 * server). A name that does not resolve goes on, to be reported unreachable.
 */
import { diag, type Diagnostic } from '../../../core/diagnostics.js';
import { isSkillctlError } from '../../../core/errors.js';
import { parseOciReference } from '../../../core/oci/index.js';
import type { SkillPin } from '../../../core/pins/index.js';
import { hostAddressCheck, type HostAddress, type HostLookup } from '../../../core/policy/index.js';

/** The host a pin's origin contacts and where the lock names it; none for an MCP server program, or an origin that does not parse (its scheme reports that). */
function originHost(pin: SkillPin, i: number): { readonly host: string; readonly what: string; readonly pointer: string } | undefined {
  const oci = pin.origin?.oci;
  if (oci !== undefined) {
    try {
      return { host: parseOciReference(oci.reference).hostname, what: oci.reference, pointer: `/skills/${i}/origin/oci/reference` };
    } catch (err) {
      if (isSkillctlError(err)) return undefined;
      throw err;
    }
  }
  const server = pin.origin?.mcp?.server;
  if (server === undefined || !('url' in server) || !URL.canParse(server.url)) return undefined;
  return { host: new URL(server.url).hostname, what: server.url, pointer: `/skills/${i}/origin/mcp/server/url` };
}

/** PIN_ORIGIN_PRIVATE for each pin (by its index in the lock) whose origin's host is not public. */
export async function privateOrigins(pins: readonly SkillPin[], lockFile: string, lookup?: HostLookup): Promise<Map<number, Diagnostic>> {
  // One answer per host: a lock of many pins from one registry resolves it once.
  const checks = new Map<string, Promise<HostAddress>>();
  const refused = new Map<number, Diagnostic>();
  for (const [i, pin] of pins.entries()) {
    const origin = originHost(pin, i);
    if (origin === undefined) continue;
    let check = checks.get(origin.host);
    if (check === undefined) checks.set(origin.host, (check = hostAddressCheck(origin.host, lookup)));
    const checked = await check;
    if (checked.kind !== 'special') continue;
    const bare = origin.host.replace(/^\[|\]$/g, '');
    const is = checked.address === bare ? `${bare} is not a public address` : `${bare} resolves to ${checked.address}, not a public address`;
    refused.set(
      i,
      diag('PIN_ORIGIN_PRIVATE', `${pin.skill_id} ${pin.skill_version}: ${origin.what} was not contacted: ${is}`, {
        file: lockFile,
        pointer: origin.pointer,
        hint: "review the lock's origin, then pass --private-origins; never in a job that runs on changes you have not reviewed",
      }),
    );
  }
  return refused;
}
