import type { Diagnostic } from '../../diagnostics.js';
import type { BundleFile } from '../../bundle/index.js';
import type { Entrypoint } from '../model.js';

export interface CheckedEntrypoint {
  readonly index: number;
  /** `/entrypoints/<index>` */
  readonly pointer: string;
  readonly ep: Entrypoint;
}

export interface RuleContext {
  /** The manifest's top-level mapping; fields may be of any type when the schema failed. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Entrypoints that passed the schema: rules may rely on their types. */
  readonly entrypoints: readonly CheckedEntrypoint[];
  /** The bundle's files when a bundle directory is known (not for stdin). */
  readonly files?: readonly BundleFile[];
}

/** One semantic rule: a pure function from the manifest to diagnostics carrying pointers. */
export interface Rule {
  readonly name: string;
  check(ctx: RuleContext): Diagnostic[];
}
