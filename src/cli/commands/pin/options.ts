import { SkillctlError } from '../../../core/errors.js';

export interface PinOptions {
  readonly lock?: string;
  readonly sign: string[];
  readonly signer: string[];
  readonly replace?: boolean;
  readonly all?: boolean;
  readonly trustKeys?: boolean;
  readonly minSigners?: number;
  /** --skill-roots LIST: comma-separated folders, or `default`. */
  readonly skillRoots?: string;
  /** oci:// paths: seconds the whole registry exchange may take, from its first request. */
  readonly timeout?: number;
}

/**
 * `--skill-roots a,b/c`: the folders, trailing slashes dropped, in the order given; `default`
 * gives `defaults` (the lock then records none). Their rules are the core's (checkSkillRoots).
 */
export function parseSkillRoots(value: string | undefined, defaults: readonly string[]): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === 'default') return defaults;
  return value.split(',').map((r) => r.trim().replace(/\/+$/, '')).filter((r) => r !== '');
}

/** Pin needs something to do (paths, --all, or --skill-roots alone, which only sets the roots) and a lock it can write. */
export function checkScope(paths: readonly string[], opts: PinOptions): void {
  if (paths.length === 0 && opts.all !== true && opts.skillRoots === undefined) throw new SkillctlError('USAGE', 'name what to pin, or pass --all', { hint: 'skillctl pin --all' });
  // `-` reads a lock from stdin for verify-pins; pin writes the lock, and stdin is no place to write it.
  if (opts.lock === '-') throw new SkillctlError('USAGE', 'pin writes the lock file: --lock - (standard input) cannot be written', { hint: 'name the lock file to update with --lock <file>' });
  // As registry publish refuses it: an option that would be silently ignored.
  if (opts.timeout !== undefined && !paths.some((p) => p.startsWith('oci://'))) throw new SkillctlError('USAGE', '--timeout applies to oci:// references, and none is given');
}

/** --sign KEY --signer ID pairs, in order; a key without its signer (or the reverse) is a usage error. */
export function signingKeys(opts: PinOptions): { file: string; signer: string }[] {
  if (opts.sign.length !== opts.signer.length) {
    throw new SkillctlError('USAGE', 'give each --sign <key> a --signer <id>', { hint: '--sign alice.key --signer alice --sign bob.key --signer bob' });
  }
  return opts.sign.map((file, i) => ({ file, signer: opts.signer[i] as string }));
}
