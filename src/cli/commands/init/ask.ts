/**
 * The questions `skillctl init` asks on a terminal (@inquirer/prompts, loaded only here). Flags
 * given on the command line are not asked again.
 */
import { basename, resolve } from 'node:path';
import type { ScriptRuntime } from '../../../core/agent-skills/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { PERMISSION_SCOPES, type PermissionScope } from '../../../core/manifest/index.js';
import { parseScopeValue } from '../../../core/policy/index.js';
import type { SkillFormat } from '../../../core/scaffold/index.js';
import type { Context } from '../../context.js';
import { descriptionProblem, idProblem, parsePermission, type Answers, type InitOptions, type Permissions, type VersionFor } from './options.js';

export interface AskHelpers {
  readonly versionFor: VersionFor;
}

function cancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError');
}

/** Asks for what the flags leave open; undefined when the user declines at the end. */
export async function askAnswers(ctx: Context, dirArg: string | undefined, opts: InitOptions, helpers: AskHelpers): Promise<Answers | undefined> {
  const { input, select, checkbox, confirm } = await import('@inquirer/prompts');
  const io = { input: ctx.io.stdin as NodeJS.ReadableStream, output: ctx.io.stdout as NodeJS.WritableStream, clearPromptOnDone: false };
  try {
    const format: SkillFormat =
      opts.format ??
      (await select<SkillFormat>(
        {
          message: 'Format',
          choices: [
            { name: 'skill.yaml bundle', value: 'manifest', description: 'skill.contract.v1: entrypoints with schemas, run by skillctl under policy' },
            { name: 'Agent Skills folder', value: 'skill-md', description: 'SKILL.md with instructions, loaded by Claude Code and other agents' },
          ],
        },
        io,
      ));
    const fromDir = dirArg !== undefined ? basename(resolve(ctx.io.cwd, dirArg)) : undefined;
    const id =
      opts.id ??
      (await input(
        {
          message: format === 'manifest' ? 'Skill id (skill_id)' : 'Skill name',
          ...(fromDir !== undefined ? { default: fromDir } : {}),
          validate: (v) => idProblem(format, v.trim()) ?? true,
        },
        io,
      )).trim();
    const description =
      opts.description ??
      (await input({ message: 'Description (what it does and when to use it)', validate: (v) => descriptionProblem(format, v) ?? true }, io)).trim();
    const runtimes: { name: string; value: ScriptRuntime | 'none' }[] = [
      { name: 'python', value: 'python' },
      { name: 'node', value: 'node' },
      { name: 'shell (bash)', value: 'shell' },
      ...(format === 'skill-md' ? [{ name: 'none: instructions only', value: 'none' as const }] : []),
    ];
    const runtime =
      opts.runtime ?? (await select<ScriptRuntime | 'none'>({ message: 'Runtime of the starter script', choices: runtimes, default: format === 'manifest' ? 'python' : 'none' }, io));
    let runtimeVersion: string | undefined;
    if (format === 'manifest' && runtime !== 'none') {
      const found = helpers.versionFor(format, runtime);
      runtimeVersion =
        opts.runtimeVersion ??
        (await input(
          {
            message: `Exact ${runtime} version to pin (runtime_version)`,
            ...(found !== undefined ? { default: found } : {}),
            validate: (v) => (v.trim() !== '' ? true : 'an exact version, e.g. 3.12.4, or bash@5.2 for shell'),
          },
          io,
        )).trim();
    }
    const permissions: Permissions = {};
    if (format === 'manifest') {
      for (const flag of opts.permission ?? []) {
        const p = parsePermission(flag);
        if (typeof p !== 'string') permissions[p.scope] = [...(permissions[p.scope] ?? []), p.value];
      }
      if ((opts.permission ?? []).length === 0) {
        const scopes = await checkbox<PermissionScope>(
          {
            message: 'Permissions the script needs (none: denied everything, the safe default)',
            choices: PERMISSION_SCOPES.map((s) => ({ name: s, value: s })),
          },
          io,
        );
        for (const scope of scopes) {
          const raw = await input(
            {
              message: `${scope} values, separated by spaces`,
              validate: (v) => {
                const values = v.split(/\s+/).filter((s) => s !== '');
                if (values.length === 0) return 'at least one value';
                for (const value of values) {
                  const p = parseScopeValue(scope, value);
                  if (!p.ok) return `${value}: ${p.reason}`;
                }
                return true;
              },
            },
            io,
          );
          permissions[scope] = raw.split(/\s+/).filter((s) => s !== '');
        }
      }
    }
    const dir = dirArg ?? id;
    const ok = opts.yes === true || (await confirm({ message: `Create ${dir}/?`, default: true }, io));
    if (!ok) return undefined;
    return { format, id, description, runtime, permissions, version: opts.skillVersion ?? '0.1.0', ...(runtimeVersion !== undefined ? { runtimeVersion } : {}) };
  } catch (err) {
    if (cancelled(err)) throw new SkillctlError('USAGE', 'cancelled; nothing was written');
    throw err;
  }
}
