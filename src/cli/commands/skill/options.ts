import { SkillctlError } from '../../../core/errors.js';

export interface SkillOptions {
  readonly profile?: string;
  readonly maxChars?: string;
  readonly stdin?: boolean;
  readonly packs?: string;
}

/** A request comes from stdin or from the flags, never both. */
export function checkRequestSource(opts: SkillOptions): void {
  if (opts.stdin === true && (opts.profile !== undefined || opts.maxChars !== undefined)) {
    throw new SkillctlError('USAGE', '--stdin reads profile and max_chars from the request; do not also give --profile or --max-chars');
  }
}

/** The request from --profile and --max-chars, in the same shape as a --stdin request. */
export function requestFromFlags(opts: SkillOptions): Record<string, unknown> {
  const req: Record<string, unknown> = {};
  if (opts.profile !== undefined) req.profile = opts.profile;
  if (opts.maxChars !== undefined) {
    // Only a plain decimal integer becomes a number; anything else stays text and is refused
    // by checkPackRequest with the same message as a bad JSON value.
    req.max_chars = /^[+-]?[0-9]+$/.test(opts.maxChars.trim()) ? Number(opts.maxChars.trim()) : opts.maxChars;
  }
  return req;
}
