/** What init needs to know, whether from flags or from questions, and how each answer is checked. */
import { charLength, nameFindings, type ScriptRuntime } from '../../../core/agent-skills/index.js';
import { PERMISSION_SCOPES, SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN, type PermissionScope } from '../../../core/manifest/index.js';
import { parseScopeValue } from '../../../core/policy/index.js';
import type { SkillFormat } from '../../../core/scaffold/index.js';

export type Permissions = Partial<Record<PermissionScope, string[]>>;

export interface Answers {
  readonly format: SkillFormat;
  readonly id: string;
  readonly description: string;
  readonly runtime: ScriptRuntime | 'none';
  readonly runtimeVersion?: string;
  readonly permissions: Permissions;
  readonly version: string;
}

/** Why `id` cannot name a skill of `format`, or undefined when it can. */
export function idProblem(format: SkillFormat, id: string): string | undefined {
  if (format === 'manifest') {
    return SKILL_ID_PATTERN.test(id) && id.length <= SKILL_ID_MAX_LENGTH ? undefined : 'use lowercase letters and digits, with . _ - between them (e.g. acme.pdf_tools)';
  }
  const bad = nameFindings(id, 'ascii').find((d) => d.severity === 'error');
  return bad === undefined ? undefined : `${bad.message} (lowercase letters, digits and single hyphens, at most 64)`;
}

export function descriptionProblem(format: SkillFormat, text: string): string | undefined {
  if (text.trim() === '') return 'say what the skill does and when to use it';
  const max = format === 'skill-md' ? 1024 : 4096;
  return charLength(text) > max ? `at most ${max} characters` : undefined;
}

/** `scope=value` of --permission, or the reason it is not one. */
export function parsePermission(flag: string): { scope: PermissionScope; value: string } | string {
  const eq = flag.indexOf('=');
  const scope = flag.slice(0, Math.max(eq, 0)) as PermissionScope;
  if (eq <= 0 || !PERMISSION_SCOPES.includes(scope)) return `${JSON.stringify(flag)} is not scope=value with a scope of ${PERMISSION_SCOPES.join(', ')}`;
  const value = flag.slice(eq + 1);
  const p = parseScopeValue(scope, value);
  return p.ok ? { scope, value } : `${scope} value ${JSON.stringify(value)}: ${p.reason}`;
}

export interface InitOptions {
  readonly format?: 'manifest' | 'skill-md';
  readonly id?: string;
  readonly description?: string;
  readonly runtime?: 'python' | 'node' | 'shell' | 'none';
  readonly runtimeVersion?: string;
  readonly permission?: string[];
  readonly skillVersion?: string;
  readonly yes?: boolean;
  readonly force?: boolean;
}
