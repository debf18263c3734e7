import { SkillctlError } from '../../../core/errors.js';

export interface PinOptions {
  readonly lock?: string;
  readonly sign: string[];
  readonly signer: string[];
  readonly replace?: boolean;
  readonly all?: boolean;
  readonly trustKeys?: boolean;
  readonly minSigners?: number;
}

/** Pin needs something to pin: paths, or --all; and a lock it can write. */
export function checkScope(paths: readonly string[], opts: PinOptions): void {
  if (paths.length === 0 && opts.all !== true) throw new SkillctlError('USAGE', 'name what to pin, or pass --all', { hint: 'skillctl pin --all' });
  // `-` reads a lock from stdin for verify-pins; pin writes the lock, and stdin is no place to write it.
  if (opts.lock === '-') throw new SkillctlError('USAGE', 'pin writes the lock file: --lock - (standard input) cannot be written', { hint: 'name the lock file to update with --lock <file>' });
}

/** --sign KEY --signer ID pairs, in order; a key without its signer (or the reverse) is a usage error. */
export function signingKeys(opts: PinOptions): { file: string; signer: string }[] {
  if (opts.sign.length !== opts.signer.length) {
    throw new SkillctlError('USAGE', 'give each --sign <key> a --signer <id>', { hint: '--sign alice.key --signer alice --sign bob.key --signer bob' });
  }
  return opts.sign.map((file, i) => ({ file, signer: opts.signer[i] as string }));
}
