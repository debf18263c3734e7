import { chmod, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { validateAgentSkill, type ScriptRuntime } from '../../../core/agent-skills/index.js';
import type { MemoryFile } from '../../../core/bundle/index.js';
import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { errnoCode, InternalError, SkillctlError } from '../../../core/errors.js';
import { createFileOrRefuse, writeFileAtomic } from '../../../core/fs/index.js';
import { fixDigests, SKILL_VERSION_PATTERN, validateBundle } from '../../../core/manifest/index.js';
import { scaffoldSkill, type ScaffoldSpec, type SkillFormat } from '../../../core/scaffold/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { renderGrouped } from '../../render/diagnostics.js';
import { renderJson } from '../../render/json.js';
import { detectRuntimeVersion } from '../../runtime-versions.js';
import { descriptionProblem, idProblem, parsePermission, type Answers, type Permissions } from './options.js';
import { askAnswers } from './ask.js';
import type { InitOptions } from './options.js';
import { makeDirs } from '../../../core/fs/make-dirs.js';

function usage(message: string, hint: string): SkillctlError {
  return new SkillctlError('USAGE', message, { hint });
}

function versionFor(ctx: Context, format: SkillFormat, runtime: ScriptRuntime | 'none', given: string | undefined): string | undefined {
  if (format !== 'manifest' || runtime === 'none') return undefined;
  return given ?? detectRuntimeVersion(ctx.io, runtime);
}

/** Answers from the flags alone: never prompts (scripts, CI, no terminal). */
function fromFlags(ctx: Context, dirArg: string | undefined, opts: InitOptions): Answers {
  const format = opts.format ?? 'manifest';
  const id = opts.id ?? (dirArg !== undefined ? basename(resolve(ctx.io.cwd, dirArg)) : undefined);
  const hint = 'pass it as a flag, or run skillctl init on a terminal to be asked';
  if (id === undefined) throw usage('no skill id: give --id or a folder name', hint);
  if (opts.description === undefined) throw usage('missing --description', hint);
  const runtime = opts.runtime ?? (format === 'manifest' ? 'python' : 'none');
  const runtimeVersion = versionFor(ctx, format, runtime, opts.runtimeVersion);
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

function check(a: Answers, opts: InitOptions): void {
  const idWhy = idProblem(a.format, a.id);
  if (idWhy !== undefined) throw usage(`${JSON.stringify(a.id)} cannot be the skill's ${a.format === 'manifest' ? 'skill_id' : 'name'}`, idWhy);
  const dWhy = descriptionProblem(a.format, a.description);
  if (dWhy !== undefined) throw usage('the description is not usable', dWhy);
  if (!SKILL_VERSION_PATTERN.test(a.version)) throw usage(`${JSON.stringify(a.version)} is not a semantic version`, 'e.g. --skill-version 0.1.0');
  if (a.format === 'manifest' && a.runtime === 'none') throw usage('a skill.yaml bundle needs a runtime', 'choose --runtime python, node or shell');
  if (a.format === 'skill-md' && (opts.permission ?? []).length > 0) {
    throw usage('SKILL.md has no permissions', 'permissions are part of a skill.yaml bundle: use --format manifest');
  }
}

async function isEmptyDir(path: string): Promise<boolean | undefined> {
  try {
    const st = await stat(path);
    if (!st.isDirectory()) return false;
    return (await readdir(path)).length === 0;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

async function writeInto(root: string, files: readonly MemoryFile[], replace: boolean): Promise<void> {
  for (const f of files) {
    const path = join(root, ...f.path.split('/'));
    await makeDirs(dirname(path));
    const mode = f.mode === '0755' ? 0o755 : 0o644;
    if (replace) {
      await writeFileAtomic(path, f.data, mode);
      await chmod(path, mode);
    } else await createFileOrRefuse(path, f.data, mode);
  }
}

/**
 * Writes the new skill. A new folder is built beside its target and renamed into place, so it
 * appears whole or not at all; an empty folder gets files created exclusively, removed again if
 * one fails; --force writes into a non-empty folder, replacing files of the same name.
 */
async function place(target: string, files: readonly MemoryFile[], force: boolean, label: string): Promise<void> {
  const empty = await isEmptyDir(target);
  if (empty === undefined) {
    await makeDirs(dirname(target));
    const tmp = await mkdtemp(join(dirname(target), `.${basename(target)}.init-`));
    try {
      await writeInto(tmp, files, false);
      await chmod(tmp, 0o755);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (errnoCode(err) === 'EEXIST' || errnoCode(err) === 'ENOTEMPTY') throw new SkillctlError('OUTPUT_EXISTS', `${label} appeared while it was being created`);
      throw err;
    }
    return;
  }
  if (empty === false && !force) {
    throw new SkillctlError('OUTPUT_EXISTS', `${label} exists and is not an empty folder`, { hint: 'choose a new folder, or pass --force to write into it' });
  }
  if (force) {
    await writeInto(target, files, true);
    return;
  }
  const written: string[] = [];
  try {
    for (const f of files) {
      await writeInto(target, [f], false);
      written.push(join(target, ...f.path.split('/')));
    }
  } catch (err) {
    for (const p of written) await rm(p, { force: true });
    throw err;
  }
}

export async function run(ctx: Context, dirArg: string | undefined, opts: InitOptions): Promise<number> {
  const interactive = opts.yes !== true && !ctx.opts.json && ctx.io.stdin.isTTY === true && ctx.io.stdout.isTTY === true;
  const answers = interactive
    ? await askAnswers(ctx, dirArg, opts, { versionFor: (format, runtime) => versionFor(ctx, format, runtime, opts.runtimeVersion) })
    : fromFlags(ctx, dirArg, opts);
  if (answers === undefined) {
    ctx.note('nothing was written');
    return 0;
  }
  check(answers, opts);
  const label = dirArg ?? answers.id;
  const target = isAbsolute(label) ? label : join(ctx.io.cwd, label);
  const spec: ScaffoldSpec = { ...answers, dirName: basename(resolve(target)) };
  const scaffold = await scaffoldSkill(spec);
  if (scaffold.files === undefined) {
    const all = sortDiagnostics(scaffold.diagnostics);
    if (ctx.opts.json) ctx.out(renderJson({ created: null, diagnostics: all }).trimEnd());
    else ctx.error(renderGrouped(all, { style: ctx.style }));
    return exitCodeFor({ ok: false, diagnostics: all });
  }
  await place(target, scaffold.files, opts.force === true, label);

  let diagnostics: readonly Diagnostic[];
  if (answers.format === 'manifest') {
    // With --force other files may share the folder; they are part of the bundle's digest.
    let r = await validateBundle(target, label);
    const fix = fixDigests(r);
    if (fix.text !== undefined && r.file !== '-') {
      await writeFileAtomic(join(target, 'skill.yaml'), fix.text);
      r = await validateBundle(target, label);
    }
    diagnostics = r.diagnostics;
    if (!r.valid) throw new InternalError(`the new bundle does not validate: ${r.diagnostics.find((d) => d.severity === 'error')?.code ?? ''}`);
  } else {
    const r = await validateAgentSkill(target, { label });
    diagnostics = r.diagnostics;
    if (!r.valid) throw new InternalError(`the new skill does not validate: ${r.diagnostics.find((d) => d.severity === 'error')?.code ?? ''}`);
  }
  const paths = scaffold.files.map((f) => f.path);
  if (ctx.opts.json) {
    ctx.out(
      renderJson({
        created: label,
        format: answers.format,
        id: answers.id,
        runtime: answers.runtime,
        runtime_version: answers.runtimeVersion ?? null,
        files: paths,
        diagnostics: sortDiagnostics(diagnostics),
      }).trimEnd(),
    );
  } else {
    if (diagnostics.length > 0) ctx.note(renderGrouped(sortDiagnostics(diagnostics), { style: ctx.style }));
    ctx.out(`created ${label}/ (${answers.format === 'manifest' ? 'skill.yaml bundle' : 'Agent Skills folder'}): ${paths.join(', ')}`);
    ctx.out(
      answers.format === 'manifest'
        ? `next: edit it; after changing any file run skillctl validate --fix ${label} to update the digests`
        : `next: write the instructions in ${label}/SKILL.md, then run skillctl validate ${label}`,
    );
  }
  return 0;
}
