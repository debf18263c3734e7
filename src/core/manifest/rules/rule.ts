import type { Diagnostic } from '../../diagnostics.js';
import type { BundleFile } from '../../bundle/index.js';
import type { ViewedEntrypoint } from './view.js';

export type { EntrypointView, ViewedEntrypoint } from './view.js';

export interface RuleContext {
  /** The manifest's top-level mapping; fields may be of any type when the schema failed. */
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * Every entrypoint that is a mapping, as far as it can be read (view.ts): a field the schema
   * found wrong, or of the wrong type, is left out. A rule checks what it can read and skips what
   * it cannot; it never assumes a field is there.
   */
  readonly entrypoints: readonly ViewedEntrypoint[];
  /** The bundle's files when a bundle directory is known (not for stdin). */
  readonly files?: readonly BundleFile[];
}

/** One semantic rule: a pure function from the manifest to diagnostics carrying pointers. */
export interface Rule {
  readonly name: string;
  check(ctx: RuleContext): Diagnostic[];
}
