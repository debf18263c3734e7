import type { CodeCatalogue } from '../code-spec.js';

/** The lock file, pinning and `verify-pins`. */
export const PIN_CODES = {
  LOCK_UNREADABLE: {
    severity: 'error',
    title: 'The lock file does not exist, cannot be read, or is not JSON.',
    exit: 'usage',
  },
  LOCK_INVALID: {
    severity: 'error',
    title: 'The lock file does not match its schema (unknown format, missing or malformed field).',
    exit: 'findings',
  },
  LOCK_NOT_CANONICAL: {
    severity: 'error',
    title: 'The lock file is not in the form skillctl writes (entry order, key order, indentation, final newline).',
    exit: 'findings',
  },
  LOCK_BUSY: {
    severity: 'error',
    title: 'Another process held the lock file\'s write lock for longer than the wait allows.',
    exit: 'usage',
  },
  PIN_MISSING: { severity: 'error', title: 'A pinned bundle, archive or pack file does not exist.', exit: 'findings' },
  PIN_ORIGIN_MISMATCH: {
    severity: 'error',
    title: 'pin oci://: the folder pulled holds other content than the artifact it was pulled from (it changed between the pull and the pin).',
    exit: 'findings',
  },
  PIN_ORIGIN_PRIVATE: {
    severity: 'error',
    title: 'verify-pins --remote: a pin\'s origin is at a host that is not a public address (loopback, private, link-local, metadata), and --private-origins was not given: it was not contacted.',
    exit: 'usage',
  },
  PIN_MODIFIED: {
    severity: 'error',
    title: 'A digest recomputed from the pinned files differs from the one in the lock.',
    exit: 'findings',
  },
  PIN_IDENTITY_MISMATCH: {
    severity: 'error',
    title: 'The lock names one id or version, and the pinned manifest or pack another.',
    exit: 'findings',
  },
  PIN_DUPLICATE: {
    severity: 'error',
    title: 'The lock pins the same identity, or the same source, twice.',
    exit: 'findings',
  },
  PIN_UNPINNED: {
    severity: 'error',
    title: 'A skill folder under a skill root, or a behaviour pack in manifests/packs/, has no pin in the lock.',
    exit: 'findings',
  },
  PIN_UNSEARCHABLE: {
    severity: 'error',
    title: 'A symbolic link or submodule where the unpinned search would have to follow it: directly in a skill root, named like a skill file (SKILL.md, skill.yaml, skill.json), or on the way to a skill root.',
    exit: 'findings',
  },
  PIN_NESTED_LOCK: {
    severity: 'error',
    title: 'A folder below the project\'s top holds a lock of its own (sub/pins/skills.lock.json): skillctl started inside it runs the skills that lock pins, under its keys and policy, which this verification does not check.',
    exit: 'findings',
  },
  PIN_SEARCH_TRUNCATED: {
    severity: 'warning',
    title: 'verify-pins on a working tree: the search for nested .claude/skills, .agents/skills and .github/skills folders stopped at its bound (10,000 directories) or at a directory it could not read.',
    exit: 'findings',
  },
  PIN_PATH_ALIAS: {
    severity: 'error',
    title: 'A path that a file system ignoring case or normalising names (macOS, Windows) takes for a skill root, a pinned source or the lock, or for the .gitattributes of a folder along them, spelt otherwise.',
    exit: 'findings',
  },
  PIN_UNCOVERED: {
    severity: 'error',
    title: 'verify-pins --staged or --rev: a file committed inside a pinned folder that its digests leave out (node_modules/, .skillctl/, a .skillignore match).',
    exit: 'findings',
  },
  PIN_CHECKOUT_CONVERTED: {
    severity: 'error',
    title: 'verify-pins --staged or --rev: a pinned file (or the lock, or its keys file) that a checkout writes as other bytes than the blob verified (a filter such as Git LFS, working-tree-encoding, ident, eol=crlf), or that is a Git LFS pointer.',
    exit: 'findings',
  },
  PIN_TRUST_CHANGED: {
    severity: 'error',
    title: 'verify-pins --base: the lock trusts other keys, requires fewer signers, searches fewer skill roots or (a provenact lock) pins another substrate_pin than the base commit\'s lock, or is not a lock of the base\'s format (another format, deleted, or one that does not load).',
    exit: 'findings',
  },
  PIN_SOURCE_INVALID: {
    severity: 'error',
    title: 'A pin\'s source is absolute, leaves the project, is not normalised, or is not where the lock format requires.',
    exit: 'findings',
  },
  PIN_IMMUTABLE: {
    severity: 'error',
    title: 'Pinning would change the digests of an existing (id, version) pin, or verify-pins --base finds them changed since the base; identities are immutable (use --replace).',
    exit: 'findings',
  },
  PIN_SOURCE_CONFLICT: {
    severity: 'error',
    title: 'The (id, version) is already pinned from another source that still exists; a lock pins one source per identity.',
    exit: 'findings',
  },
  SKILL_ROOTS_INVALID: {
    severity: 'error',
    title: 'A skill root is not a clean relative path inside the project, is listed twice, or the list is empty.',
    exit: 'findings',
  },
  PIN_NOT_FOUND: { severity: 'error', title: 'No pin in the lock has the requested skill id (and version).', exit: 'usage' },
  PIN_AMBIGUOUS: {
    severity: 'error',
    title: 'Several versions of the requested skill id are pinned; name the version.',
    exit: 'usage',
  },
  PIN_EXTRA_FILE: {
    severity: 'error',
    title: 'A provenact bundle holds a file that no digest or signature covers.',
    exit: 'findings',
  },
  PACK_DOCUMENT_INVALID: {
    severity: 'error',
    title: 'A behaviour pack file is not a mapping with a profile and a semantic-version skill_pack_version.',
    exit: 'findings',
  },
  PROVENACT_BUNDLE_INVALID: {
    severity: 'error',
    title: 'A provenact bundle\'s manifest.json or bundle-meta.json is malformed or disagrees with signatures.json.',
    exit: 'findings',
  },
} as const satisfies CodeCatalogue;
