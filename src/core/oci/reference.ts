/**
 * `oci://HOST[:PORT]/REPO[:TAG][@sha256:HEX]`: parsed once at the edge into a typed reference.
 * The grammar is the distribution spec's (repository path components, tag pattern), with the
 * host required: there is no default registry, so a name never silently goes to Docker Hub.
 */
import { SkillctlError } from '../errors.js';

export interface OciReference {
  /** `host` or `host:port`, as the registry is addressed (and as Docker config keys name it). */
  readonly registry: string;
  /** The host name alone, without port or brackets. */
  readonly hostname: string;
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

// distribution/reference: path components of lowercase alphanumerics joined by separators.
const REPOSITORY = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)(?::[0-9]{1,5})?$/;

/** True when `arg` names an OCI reference at all (so a command can pick its path by scheme). */
export function isOciArgument(arg: string): boolean {
  return arg.startsWith('oci://');
}

/** Parses `arg`; throws OCI_REFERENCE_INVALID saying which part is wrong. */
export function parseOciReference(arg: string): OciReference {
  const bad = (why: string): never => {
    throw new SkillctlError('OCI_REFERENCE_INVALID', `${arg}: ${why}`, { hint: 'write oci://HOST[:PORT]/REPO[:TAG] or oci://HOST[:PORT]/REPO@sha256:HEX' });
  };
  if (!isOciArgument(arg)) return bad('does not start with oci://');
  let rest = arg.slice('oci://'.length);
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) bad(`${digest} is not a sha256:<64 lowercase hex> digest`);
  }
  const slash = rest.indexOf('/');
  if (slash <= 0) return bad('names no repository after the host');
  const registry = rest.slice(0, slash);
  if (!HOST.test(registry)) bad(`${registry} is not a host[:port]`);
  const port = /:([0-9]+)$/.exec(registry.startsWith('[') ? registry.slice(registry.indexOf(']')) : registry);
  if (port !== null && (Number(port[1]) < 1 || Number(port[1]) > 65535)) bad(`port ${port[1]} is out of range`);
  let path = rest.slice(slash + 1);
  let tag: string | undefined;
  const colon = path.lastIndexOf(':');
  if (colon >= 0) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
    if (!TAG.test(tag)) bad(`${tag} is not a tag (letters, digits, _ . -, at most 128, not starting with . or -)`);
  }
  if (path.length > 255 || !REPOSITORY.test(path)) bad(`${path} is not a repository name (lowercase path components)`);
  const hostname = registry.startsWith('[') ? registry.slice(1, registry.indexOf(']')) : registry.replace(/:[0-9]+$/, '');
  return { registry, hostname, repository: path, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/** What a manifest request names: the digest when there is one, else the tag (`latest` when neither). */
export function manifestRef(ref: OciReference): string {
  return ref.digest ?? ref.tag ?? 'latest';
}

/** The reference written back: `oci://registry/repo[:tag][@digest]`. */
export function formatOciReference(ref: OciReference): string {
  return `oci://${ref.registry}/${ref.repository}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}

/** Loopback hosts, where plain HTTP is allowed without --plain-http: nothing leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.[0-9]+\.[0-9]+\.[0-9]+$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}
