import type { AgentSkillOptions } from '../../../core/agent-skills/index.js';

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

/** Any payload option makes `validate` check payloads, and then --contract is required (contract/payloads.ts). */
export function checksPayloads(opts: ValidateOptions): boolean {
  return opts.contract !== undefined || opts.contracts !== undefined || opts.input !== undefined;
}

/** The global --json wins over --format. */
export function outputFormat(json: boolean, opts: { readonly format?: 'human' | 'json' | 'sarif' }): 'human' | 'json' | 'sarif' {
  return json ? 'json' : (opts.format ?? 'human');
}

/** How SKILL.md folders are checked: --strict is --profile strict; names are ASCII unless told. */
export function agentSkillOptions(opts: ValidateOptions): AgentSkillOptions {
  return { profile: opts.strict === true ? 'strict' : (opts.profile ?? 'default'), nameCharset: opts.nameCharset ?? 'ascii' };
}
