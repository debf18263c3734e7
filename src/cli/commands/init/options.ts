/**
 * What init needs to know, whether from flags or from questions (./ask.ts), and how each answer is
 * checked: a value that cannot make a skill is a usage error, before anything is written.
 */
import { basename, resolve } from 'node:path';
import { charLength, nameFindings, type ScriptRuntime } from '../../../core/agent-skills/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { PERMISSION_SCOPES, SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN, SKILL_VERSION_PATTERN, type PermissionScope } from '../../../core/manifest/index.js';
import { parseScopeValue } from '../../../core/policy/index.js';
import type { ScaffoldSpec, SkillFormat } from '../../../core/scaffold/index.js';

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

function usage(message: string, hint: string): SkillctlError {
  return new SkillctlError('USAGE', message, { hint });
}

/** The runtime_version to pin: none for SKILL.md or no script; else the flag, or the machine's (the caller probes). */
export type VersionFor = (format: SkillFormat, runtime: ScriptRuntime | 'none') => string | undefined;

/** Answers from the flags alone: never prompts (scripts, CI, no terminal). */
export function answersFromFlags(dirArg: string | undefined, opts: InitOptions, env: { readonly cwd: string; readonly versionFor: VersionFor }): Answers {
  const format = opts.format ?? 'manifest';
  const id = opts.id ?? (dirArg !== undefined ? basename(resolve(env.cwd, dirArg)) : undefined);
  const hint = 'pass it as a flag, or run skillctl init on a terminal to be asked';
  if (id === undefined) throw usage('no skill id: give --id or a folder name', hint);
  if (opts.description === undefined) throw usage('missing --description', hint);
  const runtime = opts.runtime ?? (format === 'manifest' ? 'python' : 'none');
  const runtimeVersion = env.versionFor(format, runtime);
  if (format === 'manifest' && runtime !== 'none' && runtimeVersion === undefined) {
    throw usage(`cannot find ${runtime} on this machine to pin its version`, 'pass --runtime-version with the exact version');
  }
  const permissions: Permissions = {};
  for (const flag of opts.permission ?? []) {
    const p = parsePermission(flag);
    if (typeof p === 'string') throw usage(p, 'e.g. --permission fs.read=data --permission net.http=https://api.example.com/');
    permissions[p.scope] = [...(permissions[p.scope] ?? []), p.value];
  }
  return { format, id, description: opts.description, runtime, permissions, version: opts.skillVersion ?? '0.1.0', ...(runtimeVersion !== undefined ? { runtimeVersion } : {}) };
}

/** The scaffold request for checked answers, in the folder `dirName`. */
export function toSpec(a: Answers, opts: InitOptions, dirName: string): ScaffoldSpec {
  const idWhy = idProblem(a.format, a.id);
  if (idWhy !== undefined) throw usage(`${JSON.stringify(a.id)} cannot be the skill's ${a.format === 'manifest' ? 'skill_id' : 'name'}`, idWhy);
  const dWhy = descriptionProblem(a.format, a.description);
  if (dWhy !== undefined) throw usage('the description is not usable', dWhy);
  if (!SKILL_VERSION_PATTERN.test(a.version)) throw usage(`${JSON.stringify(a.version)} is not a semantic version`, 'e.g. --skill-version 0.1.0');
  if (a.format === 'manifest' && a.runtime === 'none') throw usage('a skill.yaml bundle needs a runtime', 'choose --runtime python, node or shell');
  if (a.format === 'skill-md' && (opts.permission ?? []).length > 0) {
    throw usage('SKILL.md has no permissions', 'permissions are part of a skill.yaml bundle: use --format manifest');
  }
  return { ...a, dirName };
}
