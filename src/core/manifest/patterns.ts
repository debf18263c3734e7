import contractSchema from '../../../schemas/skill.contract.v1.schema.json' with { type: 'json' };

// Taken from the schema so that the patterns used to check user input (init, convert) and the
// schema the manifest is validated against cannot drift apart.
const props = contractSchema.properties;

/** skill_id: lowercase letters and digits, with . _ - between them. */
export const SKILL_ID_PATTERN = new RegExp(props.skill_id.pattern);
export const SKILL_ID_MAX_LENGTH: number = props.skill_id.maxLength;
/** skill_version: a semantic version. */
export const SKILL_VERSION_PATTERN = new RegExp(props.skill_version.pattern);
/** entrypoint_id and tool_profile_id. */
export const ID_PATTERN = new RegExp(contractSchema.$defs.id.pattern);
export const ID_MAX_LENGTH: number = contractSchema.$defs.id.maxLength;
/**
 * One exact release of an interpreter or of skillctl: major.minor.patch, optionally a prerelease.
 * Ranges, tags and channels float to whatever is newest, and a partial version is a range.
 */
export const EXACT_RUNTIME_VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

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
