export interface RunCommandOptions {
  readonly entrypoint?: string;
  readonly input?: string;
  readonly policy?: string;
  readonly sandbox?: 'auto' | 'bwrap' | 'none';
  readonly retries?: string;
  /** A file with --audit, false with --no-audit. */
  readonly audit?: string | false;
  /** Directories of payload contracts the entrypoint's schemas may $ref (besides the built-in ones). */
  readonly contracts?: string[];
}
