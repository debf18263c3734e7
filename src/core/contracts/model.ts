import type { Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';

/** A usable payload contract: well-formed, unique, every `$ref` resolved within its set. */
export interface Contract {
  /** Versioned name, e.g. ctr.output.v1 (the `contract` keyword). */
  readonly name: string;
  /** The name without its version, e.g. ctr.output. */
  readonly family: string;
  readonly version: number;
  /** The `$id`: what a manifest's input_schema or output_schema names in a `$ref`. */
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
  /** `builtin` for the contracts shipped in schemas/contracts/, `user` for those read with --contracts. */
  readonly origin: 'builtin' | 'user';
  /** Where it was read from: schemas/contracts/<name>.schema.json, or the path as given. */
  readonly file: string;
  readonly schema: Readonly<Record<string, unknown>>;
  /** sha256 of the RFC 8785 form of the schema: equal digests, same contract. */
  readonly digest: Sha256Digest;
  /** Names of the other contracts it refers to, directly. */
  readonly uses: readonly string[];
}

export interface ContractSet {
  /** Sorted by name. */
  readonly contracts: readonly Contract[];
  /** Findings about contract files (CONTRACT_*), sorted. */
  readonly diagnostics: readonly Diagnostic[];
  /** Files that were read but are not usable, with the name they declare when one could be read. */
  readonly rejected: readonly { readonly file: string; readonly name?: string }[];
}

/** One contract document before checking: the bytes of a file, or data already parsed (built-ins). */
export interface ContractSource {
  readonly origin: 'builtin' | 'user';
  readonly file: string;
  readonly bytes?: Uint8Array;
  readonly data?: unknown;
  /** A finding from reading the file (too large, not a regular file); the source is rejected. */
  readonly problem?: Diagnostic;
}

/** The most a contract file may weigh; contracts are small. */
export const CONTRACT_MAX_BYTES = 1024 * 1024;

export const NAME_PATTERN = /^([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\.v([1-9][0-9]*)$/;
