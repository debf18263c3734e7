import type { Code } from './diagnostics.js';

const SKILLCTL_ERROR = Symbol.for('skillctl.SkillctlError');

/**
 * Thrown only when input cannot be read or a command cannot start (expected outcomes such as
 * an invalid manifest are results, not exceptions). The CLI turns it into a message and the
 * exit class of its code.
 */
export class SkillctlError extends Error {
  /** Brand checked by `isSkillctlError`: the CLI's lazily loaded command files each carry a copy of this class. */
  readonly [SKILLCTL_ERROR] = true;
  readonly code: Code;
  readonly hint: string | undefined;
  constructor(code: Code, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillctlError';
    this.code = code;
    this.hint = options.hint;
  }
}

/** A bug in skillctl. The CLI prints one line and suggests `--debug`. */
export class InternalError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'InternalError';
  }
}

/** Node's system errors carry a string `code` such as ENOENT. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** `instanceof SkillctlError` that also holds across separately bundled copies of the class. */
export function isSkillctlError(err: unknown): err is SkillctlError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[SKILLCTL_ERROR] === true;
}
