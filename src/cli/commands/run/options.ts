import { SkillctlError } from '../../../core/errors.js';

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

/** --retries N: a whole number from 0 to 3 (more would multiply a skill's cost without bound). */
export function retriesOf(raw: string | undefined): number {
  const n = Number(raw ?? '0');
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new SkillctlError('USAGE', `--retries ${raw ?? ''}: a whole number from 0 to 3`);
  return n;
}
