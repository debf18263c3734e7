/** The shape of a code catalogue entry; a leaf module, so every `codes.ts` can use it without importing diagnostics.ts. */

export type Severity = 'error' | 'warning' | 'info';

/**
 * Exit class a code maps to when it is the worst finding of a command:
 * `findings` 1, `usage` 2, `denied` 3, `contract` 4, `timeout` 124.
 */
export type ExitClass = 'findings' | 'usage' | 'denied' | 'contract' | 'timeout';

export interface CodeSpec {
  readonly severity: Severity;
  /** One line saying what the code means; docs/codes.md has the long form. */
  readonly title: string;
  readonly exit: ExitClass;
}

export type CodeCatalogue = Readonly<Record<string, CodeSpec>>;
