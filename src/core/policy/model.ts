/**
 * The host policy as the engine uses it: allowlists already parsed and, for paths, made
 * absolute. docs/formats/policy.md describes the file this is loaded from.
 */
import type { Sha256Digest } from '../digest/index.js';
import type { ScopeValue } from './scopes.js';

/** One exec allowlist entry. */
export interface ExecRule {
  /** As written: a command name (looked up on PATH) or an absolute path. */
  readonly command: string;
  /** Patterns every argument must match one of; undefined means any argument. */
  readonly args?: readonly string[];
  /** Patterns no argument may match (checked first). */
  readonly deny_args?: readonly string[];
}

/** Caps on runtime limits, in the engine's units (ms, MiB, bytes). */
export interface PolicyLimits {
  readonly timeoutMs?: number;
  readonly memoryMiB?: number;
  readonly maxOutputBytes?: number;
}

export interface HostPolicy {
  /** The policy file, or `default` for the built-in policy. */
  readonly source: string;
  /** sha256 of the policy file's bytes (of the JCS of the default policy's document). */
  readonly digest: Sha256Digest;
  /** Absolute, lexically normalised path prefixes. */
  readonly fsRead: readonly string[];
  readonly fsWrite: readonly string[];
  /** URL prefixes as written and parsed. */
  readonly netHttp: readonly { readonly raw: string; readonly value: ScopeValue & { scope: 'net.http' } }[];
  readonly exec: readonly ExecRule[];
  readonly env: readonly string[];
  readonly limits: PolicyLimits;
  /**
   * `--sandbox auto` on a host without bubblewrap: run processes without OS isolation (true) or
   * refuse them (false, the default). `--sandbox none` accepts it for one run.
   */
  readonly allowUnsandboxed: boolean;
  /**
   * A container entrypoint granted net.http: run it with the engine's network (every host and
   * port, not only the granted URLs; true) or refuse it (false, the default). No proxy reaches
   * inside an image, so the URL prefixes cannot be held there.
   */
  readonly allowContainerNetwork: boolean;
  /**
   * The PATH of every run (the policy's `path`, else RUN_PATH_DEFAULT): never the host's, which
   * differs from machine to machine and would be hidden context.
   */
  readonly runPath: string;
}
