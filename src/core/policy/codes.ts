import type { CodeCatalogue } from '../code-spec.js';

/** Host policy: reading the policy file, and every refusal the policy makes at run time. */
export const POLICY_CODES = {
  POLICY_INVALID: { severity: 'error', title: 'The host policy file is not valid; nothing runs under it.', exit: 'usage' },
  POLICY_VALUE_INVALID: {
    severity: 'error',
    title: 'An allowlist entry or limit in the host policy has the wrong form.',
    exit: 'usage',
  },
  POLICY_DUPLICATE_ENTRY: { severity: 'error', title: 'An allowlist in the host policy names the same entry twice.', exit: 'usage' },
  POLICY_PERMISSION_DENIED: {
    severity: 'error',
    title: 'A permission the entrypoint requires is not granted by the host policy; the run is refused.',
    exit: 'denied',
  },
  POLICY_PATH_INVALID: {
    severity: 'error',
    title: 'A path was refused for its form: `.` or `..` segments, control characters, NUL, a symlink loop.',
    exit: 'denied',
  },
  POLICY_PATH_DENIED: {
    severity: 'error',
    title: 'A path lies outside the granted fs.read / fs.write paths (after resolving symlinks).',
    exit: 'denied',
  },
  POLICY_PATH_PROTECTED: {
    severity: 'error',
    title: 'A write was refused because the path is protected whatever the grant: a policy, lock, key or signature file, .skillctl/, .git/hooks, .git/config, a shell start-up file.',
    exit: 'denied',
  },
  POLICY_PATH_SECRET: {
    severity: 'error',
    title: 'A read, write or listing was refused because the path holds secret keys (.skillctl/keys in any directory), or is a file the command that started the run keeps secret (mcp --http-token-file), whatever the grant.',
    exit: 'denied',
  },
  SECRET_FILE_EXPOSED: {
    severity: 'warning',
    title: "A secret file skillctl writes or is given (keygen's secret key, mcp --http-token-file) lies outside a .skillctl/keys/ folder, where a skill granted to read its folder can read it.",
    exit: 'findings',
  },
  POLICY_PATH_CHANGED: {
    severity: 'error',
    title: 'A path the host policy grants has become a symlink inside a writable directory; the run is refused instead of following it.',
    exit: 'denied',
  },
  POLICY_PATH_LINK: {
    severity: 'error',
    title: 'A path the host policy grants leads through a symlink in a directory this user owns or can write, which a skill could have made; the run is refused instead of following it.',
    exit: 'denied',
  },
  SERVED_FOLDER_WRITABLE: {
    severity: 'warning',
    title: "A folder mcp serves (--registry, --skills DIR) overlaps what a project's policy lets skills write: a skill run there could change the tools or skills the server offers.",
    exit: 'findings',
  },
  POLICY_FILE_WRITABLE: {
    severity: 'error',
    title: 'A policy named with --policy lies where a project\'s policy lets skills write, outside what every run of that project protects; it is not obeyed.',
    exit: 'usage',
  },
  POLICY_ROOT_WRITABLE: {
    severity: 'error',
    title: "A nested project root's policy or lock lies where an enclosing project's policy lets skills write; it is not obeyed.",
    exit: 'usage',
  },
  POLICY_URL_INVALID: {
    severity: 'error',
    title: 'A URL was refused for its form: not http(s), userinfo, encoded traversal, dot segments, fragment.',
    exit: 'denied',
  },
  POLICY_URL_DENIED: { severity: 'error', title: 'A URL is not covered by the granted net.http prefixes.', exit: 'denied' },
  POLICY_HOST_UNRESOLVED: { severity: 'error', title: 'The host of a granted URL did not resolve; the request is refused.', exit: 'denied' },
  POLICY_ADDRESS_PRIVATE: {
    severity: 'error',
    title: 'A host name resolves to a loopback, private, link-local or otherwise non-public address.',
    exit: 'denied',
  },
  POLICY_EXEC_DENIED: { severity: 'error', title: 'A command is not on the granted exec allowlist.', exit: 'denied' },
  POLICY_EXEC_WRITABLE: {
    severity: 'error',
    title: 'A command an exec rule grants resolves (through symlinks) to a program inside an fs.write path of the policy, or through a link inside one, which a skill may have rewritten or pointed elsewhere; it is not run.',
    exit: 'denied',
  },
  POLICY_EXEC_ARGUMENT_DENIED: {
    severity: 'error',
    title: 'A command is granted, but one of its arguments is not allowed by the policy.',
    exit: 'denied',
  },
  POLICY_ENV_DENIED: { severity: 'error', title: 'An environment variable is not granted.', exit: 'denied' },
  POLICY_LIMIT_CAPPED: { severity: 'info', title: "A runtime limit of the entrypoint was lowered to the host policy's cap.", exit: 'findings' },
} as const satisfies CodeCatalogue;
