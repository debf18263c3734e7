export interface ValidateOptions {
  readonly fix?: boolean;
  readonly format?: 'human' | 'json' | 'sarif';
  /** Agent Skills (SKILL.md) folders only. */
  readonly profile?: 'spec' | 'default' | 'strict';
  readonly strict?: boolean;
  readonly nameCharset?: 'ascii' | 'unicode';
  /** Validate payloads against this contract instead of manifests (docs/commands/contract.md). */
  readonly contract?: string;
  readonly contracts?: readonly string[];
  /** The input payload, for rules that relate an output to its input. */
  readonly input?: string;
}
