import type { CodeCatalogue } from '../code-spec.js';

/**
 * Pushing to and pulling from an OCI registry. A registry that cannot be used (unreachable, refuses
 * the credentials, does not have the reference) is exit 2; what it sent failing verification is a
 * finding, exit 1.
 */
export const OCI_CODES = {
  OCI_REFERENCE_INVALID: {
    severity: 'error',
    title: 'The argument is not an oci://HOST[:PORT]/REPO[:TAG][@sha256:HEX] reference.',
    exit: 'usage',
  },
  OCI_PLAIN_HTTP_REFUSED: {
    severity: 'error',
    title: 'The registry, a redirect or a token realm would be reached over plain HTTP, which only a loopback host, or --plain-http for the registry\'s own host, allows.',
    exit: 'usage',
  },
  OCI_UNREACHABLE: {
    severity: 'error',
    title: 'The registry could not be reached (connection refused, name not resolved, TLS failure, timeout) or kept failing after the retries.',
    exit: 'usage',
  },
  OCI_AUTH_REQUIRED: {
    severity: 'error',
    title: 'The registry asks for credentials and none are configured for it.',
    exit: 'usage',
  },
  OCI_AUTH_DENIED: {
    severity: 'error',
    title: 'The registry refused the credentials, or the token service gave no token.',
    exit: 'usage',
  },
  OCI_NOT_FOUND: {
    severity: 'error',
    title: 'The registry does not have the repository, tag, manifest or blob asked for.',
    exit: 'usage',
  },
  OCI_REGISTRY_ERROR: {
    severity: 'error',
    title: "The registry answered with an unexpected status; its own error message is shown.",
    exit: 'usage',
  },
  OCI_REDIRECT_REFUSED: {
    severity: 'error',
    title: 'The registry redirected too many times, in a loop, or to a URL that is not HTTP(S).',
    exit: 'usage',
  },
  OCI_NOT_CACHED: {
    severity: 'error',
    title: 'run oci://… reads the local cache only, and the manifest or a blob it names is not there.',
    exit: 'usage',
  },
  OCI_TAG_UNPINNED: {
    severity: 'error',
    title: 'run oci://… was given a tag that no lock pins; runs take a digest (@sha256:…) or a pinned tag.',
    exit: 'usage',
  },
  OCI_DIGEST_MISMATCH: {
    severity: 'error',
    title: 'A manifest or blob the registry sent (or the cache holds) does not hash to the digest it was asked for.',
    exit: 'findings',
  },
  OCI_SIZE_MISMATCH: {
    severity: 'error',
    title: 'A blob the registry sent is shorter or longer than its descriptor says.',
    exit: 'findings',
  },
  OCI_MANIFEST_TOO_LARGE: {
    severity: 'error',
    title: 'A manifest the registry sent is over the 4 MiB bound; it is refused without being read whole.',
    exit: 'findings',
  },
  OCI_MANIFEST_INVALID: {
    severity: 'error',
    title: 'The manifest, config or referrer the registry sent is not the JSON document its media type says.',
    exit: 'findings',
  },
  OCI_MEDIA_TYPE_UNSUPPORTED: {
    severity: 'error',
    title: 'The manifest, its artifact type or its layer has a media type skillctl does not read.',
    exit: 'findings',
  },
  OCI_SIGNERS_TOO_FEW: {
    severity: 'error',
    title: 'Fewer distinct trusted signers have a valid signature referring to the artifact than pull --min-signers asks for.',
    exit: 'findings',
  },
  OCI_TAG_DRIFT: {
    severity: 'error',
    title: 'verify-pins --remote: a pinned tag now resolves to another manifest digest than the lock pins.',
    exit: 'findings',
  },
  OCI_ORIGIN_MISMATCH: {
    severity: 'error',
    title: 'verify-pins --remote: the artifact a pin names as its origin holds other content than the pin (its config\'s manifest or content digest differs).',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
