import type { Code } from '../../diagnostics.js';

/** What a check may know besides the value: the input payload of the same exchange. */
export interface KeywordContext {
  /** The skill's input payload, when the caller gave one (`validate --input`, the run engine). */
  readonly input?: { readonly value: unknown };
  /** Rules that could not run for lack of input; reported as PAYLOAD_RULE_UNCHECKED warnings. */
  readonly unchecked: { pointer: string; message: string }[];
}

/** One violation found by a keyword. */
export interface Violation {
  readonly message: string;
  /** Where the violation is, when not at the checked value itself (e.g. a sibling field). */
  readonly pointer?: string;
}

export interface KeywordCheck<A> {
  /** The checked value (already of the keyword's JSON type). */
  readonly value: unknown;
  /** The keyword's value in the contract (already valid against its meta-schema). */
  readonly arg: A;
  /** JSON pointer of the checked value in the payload. */
  readonly pointer: string;
  readonly context: KeywordContext;
}

/** A skillctl contract keyword: a rule JSON Schema cannot state, with its own diagnostic code. */
export interface ContractKeyword<A = unknown> {
  readonly keyword: string;
  readonly code: Code;
  /** JSON type the keyword applies to; values of other types pass (as with JSON Schema's own keywords). */
  readonly type: 'string' | 'array' | 'object';
  check(c: KeywordCheck<A>): Violation[];
}

export function defineKeyword<A>(k: ContractKeyword<A>): ContractKeyword<A> {
  return k;
}
