/**
 * The reference a container entrypoint pins its image by. Its own module, without the contract
 * schema patterns.ts reads: the run chunk checks it before a container starts, and must not carry
 * the schema (test/cli/run-builtins/default-bundle.test.ts).
 */

const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const PATH_PART = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
/**
 * A container image pinned by its digest, as a registry reference (docker's grammar: an optional
 * registry host and port, a lowercase path, an optional tag, which the digest outranks, and the
 * digest). podman also reads an image from a transport (`dir:/tmp/x`, `oci:`, `oci-archive:`,
 * `docker-archive:`, `containers-storage:[root]…`), where `@sha256:<hex>` is only part of a
 * file's name and nothing checks the digest: whatever lies at that path when the run starts (a
 * world-writable /tmp, a folder a skill may write) would be the image, however the lock pins the
 * manifest. `docker:` is no transport without `//` (podman reads `docker:24-dind@…` as the image
 * docker), and `//` is no part of the grammar.
 */
export const PINNED_IMAGE = new RegExp(
  `^(?!(?:containers-storage|dir|docker-archive|docker-daemon|oci|oci-archive|ostree|sif|tarball):)` +
    `(?:(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?/)?${PATH_PART}(?:/${PATH_PART})*` +
    `(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?@sha256:[0-9a-f]{64}$`,
);
