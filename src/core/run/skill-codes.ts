import type { CodeCatalogue } from '../code-spec.js';

/**
 * Errors and refusals of the built-in skills (src/skills), part of the builtin runtime contract
 * (builtin.ts). A skill reports one of these as the `code` of its error object (shaped by the manifest's error_schema) or of a denial it makes
 * itself beyond the host policy's checks; the exit class says how `skillctl run` ends.
 */
export const SKILL_CODES = {
  SKILL_REQUEST_INVALID: { severity: 'error', title: 'A built-in skill received a request its contract does not allow.', exit: 'usage' },
  SKILL_FILE_NOT_FOUND: { severity: 'error', title: 'The file or directory named in the request does not exist.', exit: 'findings' },
  SKILL_NOT_A_FILE: { severity: 'error', title: 'The path names something other than a regular file.', exit: 'findings' },
  SKILL_NOT_A_DIRECTORY: { severity: 'error', title: 'The path names something other than a directory.', exit: 'findings' },
  SKILL_BINARY_CONTENT: { severity: 'error', title: 'The content is binary, not text, and is refused.', exit: 'findings' },
  SKILL_ENCODING_UNSUPPORTED: { severity: 'error', title: 'The requested or declared text encoding is not known.', exit: 'usage' },
  SKILL_DECODE_FAILED: { severity: 'error', title: 'The bytes are not valid in the text encoding they are read with.', exit: 'findings' },
  SKILL_PATCH_INVALID: { severity: 'error', title: 'The unified diff cannot be parsed or names no file.', exit: 'usage' },
  SKILL_WRITE_FAILED: {
    severity: 'error',
    title: 'Writing the patched files failed; the files written so far were restored.',
    exit: 'findings',
  },
  SKILL_PATH_OUTSIDE_BASE: { severity: 'error', title: 'A patch names a path outside its base directory.', exit: 'denied' },
  SKILL_PATTERN_INVALID: { severity: 'error', title: 'The search pattern is not a valid portable regular expression.', exit: 'usage' },
  SKILL_EXEC_FAILED: { severity: 'error', title: 'The command could not be started.', exit: 'findings' },
  SKILL_TIMED_OUT: { severity: 'error', title: "The skill's operation ran out of time and was stopped.", exit: 'timeout' },
  SKILL_OUTPUT_LIMIT: { severity: 'error', title: "The result would exceed the host's output cap and has no truncation flag.", exit: 'findings' },
  SKILL_GIT_FAILED: { severity: 'error', title: 'git reported an error.', exit: 'findings' },
  SKILL_NOT_A_REPOSITORY: { severity: 'error', title: 'The working directory is not inside a git work tree.', exit: 'findings' },
  SKILL_GIT_CONFIG_REFUSED: {
    severity: 'error',
    title: "git.status or git.diff refused a repository whose configuration cannot be read whole or names something that cannot be neutralised.",
    exit: 'denied',
  },
  SKILL_COMMIT_NOT_FOUND: { severity: 'error', title: 'The commit named in the request does not exist.', exit: 'findings' },
  SKILL_HTTP_FAILED: { severity: 'error', title: 'The HTTP request failed (connection, TLS or protocol error).', exit: 'findings' },
  SKILL_REDIRECT_LIMIT: { severity: 'error', title: 'The URL redirected more times than allowed, or to a non-HTTP location.', exit: 'findings' },
  SKILL_INPUT_TOO_LARGE: { severity: 'error', title: 'A payload in the request is larger than the skill accepts.', exit: 'usage' },
  SKILL_EXTRACT_FAILED: { severity: 'error', title: 'The document could not be parsed for its text.', exit: 'findings' },
} as const satisfies CodeCatalogue;

export type SkillCode = keyof typeof SKILL_CODES;
