import { SkillctlError } from '../../../core/errors.js';

export interface RunCommandOptions {
  /** List the skill ids instead of running one. */
  readonly list?: boolean;
  readonly entrypoint?: string;
  readonly input?: string;
  readonly policy?: string;
  readonly sandbox?: 'auto' | 'bwrap' | 'none';
  readonly retries?: string;
  /** A file with --audit, false with --no-audit. */
  readonly audit?: string | false;
  /** Run twice and compare the records' fingerprints. */
  readonly checkDeterminism?: boolean;
  /** Directories of payload contracts the entrypoint's schemas may $ref (besides the built-in ones). */
  readonly contracts?: string[];
}

/** The target to run: required unless --list, which takes none. */
export function targetOf(target: string | undefined, opts: RunCommandOptions): string | undefined {
  if (opts.list === true) {
    if (opts.checkDeterminism === true) throw new SkillctlError('USAGE', '--list and --check-determinism do not go together');
    if (target !== undefined) throw new SkillctlError('USAGE', `--list takes no target (got ${target})`, { hint: 'skillctl run --list, then skillctl run <skill_id>' });
    return undefined;
  }
  if (target === undefined) {
    throw new SkillctlError('USAGE', "missing required argument 'target'", { hint: 'name a skill id, a bundle directory or an archive; skillctl run --list shows the skill ids' });
  }
  return target;
}

/** --retries N: a whole number from 0 to 3 (more would multiply a skill's cost without bound). */
export function retriesOf(raw: string | undefined): number {
  const n = Number(raw ?? '0');
  if (!Number.isInteger(n) || n < 0 || n > 3) throw new SkillctlError('USAGE', `--retries ${raw ?? ''}: a whole number from 0 to 3`);
  return n;
}
