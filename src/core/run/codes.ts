import type { CodeCatalogue } from '../code-spec.js';

/** `skillctl run` (resolving, executing, checking contracts) and the audit log. */
export const RUN_CODES = {
  RUN_TARGET_INVALID: { severity: 'error', title: 'The run target is neither a skill id nor a bundle directory nor a readable archive.', exit: 'usage' },
  RUN_SKILL_NOT_FOUND: {
    severity: 'error',
    title: "The skill id is neither in the project's lock file nor in the built-in default bundle.",
    exit: 'usage',
  },
  RUN_LOCK_INVALID: { severity: 'error', title: 'pins/skills.lock.json cannot be read or has the wrong shape.', exit: 'usage' },
  RUN_PIN_MISMATCH: { severity: 'error', title: 'The bundle does not match its pin (skill id, version or digests); it is not run.', exit: 'findings' },
  RUN_UNPINNED: { severity: 'info', title: 'The skill ran from a bundle that no lock file pins.', exit: 'findings' },
  RUN_BUNDLE_INVALID: { severity: 'error', title: 'The bundle or its manifest is not valid; it is not run.', exit: 'findings' },
  RUN_ENTRYPOINT_NOT_FOUND: { severity: 'error', title: 'The manifest has no entrypoint with that id.', exit: 'usage' },
  RUN_ENTRYPOINT_REQUIRED: {
    severity: 'error',
    title: 'The manifest has several entrypoints and none is called main; name one with --entrypoint.',
    exit: 'usage',
  },
  RUN_INPUT_INVALID: { severity: 'error', title: "The input is not JSON or does not conform to the entrypoint's input_schema.", exit: 'usage' },
  RUN_ENV_MISSING: { severity: 'error', title: 'An environment variable the entrypoint requires is granted but not set.', exit: 'usage' },
  RUN_VALUE_FINGERPRINT_MISMATCH: {
    severity: 'warning',
    title: "A variable's value differs from its value_fingerprints entry; an error when the entrypoint asks for strict determinism.",
    exit: 'usage',
  },
  RUN_OUTPUT_INVALID: {
    severity: 'error',
    title: "The skill's output is not JSON or violates its output_schema; it was discarded.",
    exit: 'contract',
  },
  RUN_OUTPUT_DISCARDED: {
    severity: 'warning',
    title: 'An attempt produced an output that violated the contract; it was discarded and the skill run again.',
    exit: 'contract',
  },
  RUN_ERROR_INVALID: { severity: 'error', title: 'The error the skill reported violates its error_schema.', exit: 'contract' },
  RUN_SKILL_FAILED: { severity: 'error', title: 'The skill reported an error or its process exited with a non-zero status.', exit: 'findings' },
  RUN_INTERRUPTED: {
    severity: 'error',
    title: 'The run was interrupted (SIGINT or SIGTERM); the skill and its processes were stopped and the run recorded.',
    exit: 'findings',
  },
  RUN_TIMEOUT: { severity: 'error', title: 'The skill ran past max_execution_time; it and all its processes were killed.', exit: 'timeout' },
  RUN_OUTPUT_LIMIT: { severity: 'error', title: 'The skill wrote more than max_output_bytes; it was stopped and its output discarded.', exit: 'findings' },
  RUN_MEMORY_LIMIT: { severity: 'error', title: 'The skill ran out of its max_memory allowance.', exit: 'findings' },
  RUN_MEMORY_UNCAPPED: { severity: 'warning', title: 'prlimit is not installed: the memory limit of a process runtime is not enforced.', exit: 'findings' },
  RUN_RUNTIME_UNAVAILABLE: { severity: 'error', title: "The entrypoint's runtime (node, python, a command) cannot be started here.", exit: 'usage' },
  RUN_RUNTIME_VERSION_MISMATCH: {
    severity: 'warning',
    title: 'The interpreter found is not the runtime_version the entrypoint pins.',
    exit: 'findings',
  },
  RUN_SANDBOX_UNAVAILABLE: { severity: 'error', title: 'The requested sandbox (bubblewrap) is not installed or cannot start.', exit: 'usage' },
  RUN_UNSANDBOXED: {
    severity: 'warning',
    title: 'bubblewrap is not installed: the process ran without OS-level isolation (--sandbox auto).',
    exit: 'findings',
  },
  RUN_CONTAINER_ENGINE_UNAVAILABLE: {
    severity: 'error',
    title: 'A container entrypoint needs a running container engine (docker or podman); none answered.',
    exit: 'usage',
  },
  RUN_BUILTIN_UNKNOWN: { severity: 'error', title: 'The builtin:<skill_id> the entrypoint names is not part of this skillctl.', exit: 'findings' },
  RUN_DETERMINISM_INELIGIBLE: {
    severity: 'error',
    title: '--check-determinism was asked for an entrypoint that is not determinism-eligible; nothing was run.',
    exit: 'usage',
  },
  RUN_DETERMINISM_WRITES: {
    severity: 'error',
    title: '--check-determinism was asked for an entrypoint that may write files (fs.write); nothing was run.',
    exit: 'usage',
  },
  RUN_NONDETERMINISTIC: {
    severity: 'error',
    title: 'Two runs of the same input (--check-determinism) differ in their result or side-effect fingerprint.',
    exit: 'findings',
  },
  AUDIT_UNWRITABLE: { severity: 'error', title: 'The audit log cannot be opened for appending; nothing is run.', exit: 'usage' },
  AUDIT_LINE_MALFORMED: { severity: 'error', title: 'An audit log line is not a JSON record with a receipt_hash.', exit: 'findings' },
  AUDIT_CHAIN_BROKEN: {
    severity: 'error',
    title: 'An audit record does not follow the record before it: a record was deleted, reordered or inserted.',
    exit: 'findings',
  },
  AUDIT_HEAD_MISMATCH: { severity: 'error', title: 'The audit log does not end at the head kept for it: records at its end were removed.', exit: 'findings' },
  AUDIT_LINE_TORN: { severity: 'warning', title: "The audit log's last line is incomplete: a writer stopped in the middle of it.", exit: 'findings' },
  AUDIT_UNCHAINED: { severity: 'warning', title: 'Records written before the audit log was chained: a deletion among them cannot be detected.', exit: 'findings' },
  AUDIT_RUN_UNFINISHED: { severity: 'warning', title: 'A run has a start record and no end record: it was killed, or is still running.', exit: 'findings' },
  AUDIT_RECORD_TAMPERED: { severity: 'error', title: "An audit record does not match its receipt_hash: it was altered after it was written.", exit: 'findings' },
} as const satisfies CodeCatalogue;
