import type { Diagnostic } from '../../diagnostics.js';
import type { Entrypoint } from '../../manifest/index.js';
import type { ParsedCapability } from '../bundle.js';
import type { IndexEntry } from '../model.js';

/** What a bound tool resolved to: the entrypoint, or why there is none. */
export type BindingResolution =
  | { readonly found: true; readonly entrypoint: Entrypoint; readonly source: string }
  | { readonly found: false; readonly reason: string };

export interface CheckContext {
  readonly bundle: ParsedCapability;
  /** The registry's published capabilities, when known (the bundle's own id is skipped by checks). */
  readonly others?: readonly IndexEntry[];
  /** Bindings resolved before the checks ran, keyed `skill_id#entrypoint_id`. */
  readonly bindings: ReadonlyMap<string, BindingResolution>;
}

/** One publish-time check: a pure function from the parsed bundle to diagnostics. */
export interface Check {
  readonly name: string;
  check(ctx: CheckContext): Diagnostic[];
}

export function bindingKey(skillId: string, entrypointId: string): string {
  return `${skillId}#${entrypointId}`;
}
