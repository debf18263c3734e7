import { SkillctlError } from '../../../core/errors.js';
import type { ValidateOptions } from '../validate/options.js';

export interface ContractOptions {
  /** Directories of user contracts, in order (repeatable --contracts). */
  readonly contracts?: readonly string[];
}

/** What `contract` was asked to do. */
export type ContractRequest = { readonly action: 'list'; readonly opts: ContractOptions } | { readonly action: 'show'; readonly name: string; readonly opts: ContractOptions };

/** `validate --contract NAME [FILE|-]...` as a request: the contract, and the payloads to read. */
export interface PayloadsOptions {
  readonly contract: string;
  readonly contracts: readonly string[];
  readonly input?: string;
  readonly files: readonly string[];
}

/**
 * Checks the payload options of `validate` and says which payloads to read: with none named,
 * stdin, unless it is a terminal (nobody is typing a payload).
 */
export function payloadsOptions(args: readonly string[], opts: ValidateOptions, stdinIsTTY: boolean): PayloadsOptions {
  if (opts.contract === undefined) throw new SkillctlError('USAGE', '--contracts and --input go with --contract NAME');
  if (opts.fix === true) throw new SkillctlError('USAGE', '--fix rewrites manifests; it does not apply to --contract');
  let files = [...args];
  if (files.length === 0) {
    if (stdinIsTTY) throw new SkillctlError('USAGE', 'give payload files, or - to read one from stdin');
    files = ['-'];
  }
  if (opts.input === '-' && files.includes('-')) throw new SkillctlError('USAGE', 'stdin cannot be both the payload and --input');
  return { contract: opts.contract, contracts: opts.contracts ?? [], files, ...(opts.input !== undefined ? { input: opts.input } : {}) };
}
